/**
 * Checks request parameters at the worker's edge: the host is trusted code,
 * but a malformed message must become an error reply, never a crash.
 */
import { isAbsolute } from 'node:path';
import { isPlainObject } from '../../../sandbox/util/json';
import type { ApiSettings, ManifestInput, ObjectRef, SandboxSettings } from '../sandbox/protocol';
import { isSupportedKubernetesVersion, unsupportedVersionMessage } from '../../../sandbox/schema/versions';

export class BadRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BadRequest';
  }
}

export function record(value: unknown, what: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw new BadRequest(`${what} must be an object`);
  return value;
}

export function text(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new BadRequest(`${what} must be a non-empty string`);
  return value;
}

export function settingsOf(value: unknown): SandboxSettings {
  const s = record(value, 'settings');
  const { nodes, speed, seed, selfHeal, kubernetesVersion, timeline } = s;
  if (typeof nodes !== 'number' || !Number.isInteger(nodes) || nodes < 0 || nodes > 100)
    throw new BadRequest('settings.nodes must be an integer from 0 to 100');
  if (typeof speed !== 'number' || !Number.isFinite(speed) || speed <= 0)
    throw new BadRequest('settings.speed must be a positive number');
  if (typeof seed !== 'number' || !Number.isFinite(seed)) throw new BadRequest('settings.seed must be a number');
  if (typeof selfHeal !== 'boolean') throw new BadRequest('settings.selfHeal must be true or false');
  if (timeline !== undefined && typeof timeline !== 'boolean')
    throw new BadRequest('settings.timeline must be true or false');
  const recording = timeline === false ? { timeline } : {};
  if (kubernetesVersion === undefined) return { nodes, speed, seed, selfHeal, ...recording };
  if (typeof kubernetesVersion !== 'string' || !isSupportedKubernetesVersion(kubernetesVersion))
    throw new BadRequest(unsupportedVersionMessage(String(kubernetesVersion)));
  return { nodes, speed, seed, selfHeal, kubernetesVersion, ...recording };
}

export function manifestsOf(value: unknown): ManifestInput[] {
  if (!Array.isArray(value)) throw new BadRequest('manifests must be a list');
  return value.map((m: unknown, i) => {
    const doc = record(m, `manifests[${i}]`);
    if (typeof doc.line !== 'number' || !Number.isInteger(doc.line) || doc.line < 0)
      throw new BadRequest(`manifests[${i}].line must be a non-negative integer`);
    const object = record(doc.object, `manifests[${i}].object`);
    return { line: doc.line, object: object as unknown as ManifestInput['object'] };
  });
}

export function objectRefOf(value: unknown): ObjectRef {
  const p = record(value, 'params');
  const namespace = p.namespace === undefined || p.namespace === '' ? undefined : text(p.namespace, 'namespace');
  return { resource: text(p.resource, 'resource'), namespace, name: text(p.name, 'name') };
}

export function apiSettingsOf(value: unknown): ApiSettings {
  const p = record(value, 'api');
  if (typeof p.enabled !== 'boolean') throw new BadRequest('api.enabled must be true or false');
  if (typeof p.port !== 'number' || !Number.isInteger(p.port) || p.port < 0 || p.port > 65535)
    throw new BadRequest('api.port must be an integer from 0 to 65535');
  const kubeconfig = text(p.kubeconfig, 'api.kubeconfig');
  if (!isAbsolute(kubeconfig)) throw new BadRequest('api.kubeconfig must be an absolute path');
  return { enabled: p.enabled, port: p.port, kubeconfig };
}
