/**
 * Request bodies in Kubernetes protobuf (`application/vnd.kubernetes.protobuf`),
 * as kubectl's typed clients send them for `kubectl create …` and for
 * DeleteOptions: decoded into the same plain JSON object the JSON body of the
 * same object would parse to, so everything after decoding is shared.
 *
 * Only the kinds and messages described in `tables/` are decoded. Anything
 * else — another kind, a field number or message type we do not know, a
 * compressed payload — is 415 naming what was unsupported; malformed bytes
 * are 400 with upstream's decode-error wording.
 */
import { badRequest } from '../../api/errors';
import type { KubeObject } from '../../api/types';
import { decodeMessage } from './decode';
import type { Envelope } from './envelope';
import { readEnvelope } from './envelope';
import { unsupportedProtobuf } from './failures';
import type { MessageDescriptor } from './schema';
import { buildRegistry } from './schema';
import { APPS } from './tables/apps';
import { AUTOSCALING } from './tables/autoscaling';
import { BATCH } from './tables/batch';
import { CORE } from './tables/core';
import { META } from './tables/meta';
import { NETWORKING } from './tables/networking';
import { POD_SPEC } from './tables/podSpec';
import { POLICY } from './tables/policy';
import { RBAC } from './tables/rbac';
import { SCHEDULING } from './tables/scheduling';
import { VOLUMES } from './tables/volumes';
import { ProtobufFormatError } from './wire';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

export const PROTOBUF_TABLES = [
  META,
  CORE,
  POD_SPEC,
  VOLUMES,
  APPS,
  BATCH,
  RBAC,
  POLICY,
  NETWORKING,
  SCHEDULING,
  AUTOSCALING,
] as const;

/** apiVersion/kind → the message of that object. DeleteOptions is accepted under any apiVersion. */
export const PROTOBUF_KINDS: Readonly<Record<string, string>> = {
  'v1/ConfigMap': 'ConfigMap',
  'v1/Secret': 'Secret',
  'v1/Namespace': 'Namespace',
  'v1/Service': 'Service',
  'v1/ServiceAccount': 'ServiceAccount',
  'v1/ResourceQuota': 'ResourceQuota',
  'v1/LimitRange': 'LimitRange',
  'v1/Pod': 'Pod',
  'apps/v1/Deployment': 'Deployment',
  'batch/v1/Job': 'Job',
  'batch/v1/CronJob': 'CronJob',
  'rbac.authorization.k8s.io/v1/Role': 'Role',
  'rbac.authorization.k8s.io/v1/RoleBinding': 'RoleBinding',
  'rbac.authorization.k8s.io/v1/ClusterRole': 'ClusterRole',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': 'ClusterRoleBinding',
  'policy/v1/PodDisruptionBudget': 'PodDisruptionBudget',
  'policy/v1/Eviction': 'Eviction',
  'networking.k8s.io/v1/Ingress': 'Ingress',
  'scheduling.k8s.io/v1/PriorityClass': 'PriorityClass',
  // `kubectl autoscale` (kubectl 1.32 creates an autoscaling/v1 object).
  'autoscaling/v1/HorizontalPodAutoscaler': 'HorizontalPodAutoscaler',
};

let registry: Map<string, MessageDescriptor> | undefined;

/** The described messages, parsed from the tables on first use. */
export function protobufRegistry(): ReadonlyMap<string, MessageDescriptor> {
  registry ??= buildRegistry(PROTOBUF_TABLES);
  return registry;
}

/** upstream `summarizeData`: binary bodies are shown as hex, cut at 30 bytes. */
function summary(body: Uint8Array): string {
  if (body.length === 0) return '<empty>';
  const hex = Buffer.from(body.subarray(0, 30)).toString('hex');
  return body.length > 30 ? `${hex} ...` : hex;
}

function messageFor(env: Envelope): string {
  if (env.kind === '') throw new ProtobufFormatError("Object 'Kind' is missing");
  const name = env.kind === 'DeleteOptions' ? 'DeleteOptions' : PROTOBUF_KINDS[`${env.apiVersion}/${env.kind}`];
  if (!name) throw unsupportedProtobuf(`kind ${env.kind} of apiVersion "${env.apiVersion}"`);
  if (env.contentEncoding !== '') throw unsupportedProtobuf(`a payload with contentEncoding "${env.contentEncoding}"`);
  if (env.contentType !== '' && env.contentType !== PROTOBUF_MEDIA_TYPE) {
    throw unsupportedProtobuf(`a payload of contentType "${env.contentType}"`);
  }
  return name;
}

/**
 * Decodes a protobuf request body into the object's JSON form (`apiVersion`
 * and `kind` from the envelope, first). `expectedKind` names the URL's kind in
 * 400 messages, as upstream's decode errors do. DeleteOptions has no metadata.
 */
export function decodeProtobufBody(body: Uint8Array, expectedKind?: string): KubeObject {
  let env: Envelope | undefined;
  try {
    env = readEnvelope(body);
    const reg = protobufRegistry();
    const desc = reg.get(messageFor(env))!; // every PROTOBUF_KINDS entry is described (tested)
    const fields = decodeMessage(desc, env.raw, { registry: reg, values: 0 }, '', 0);
    return { apiVersion: env.apiVersion, kind: env.kind, ...fields } as KubeObject;
  } catch (e) {
    if (!(e instanceof ProtobufFormatError)) throw e;
    if (env && env.kind !== '') {
      const version = env.apiVersion.slice(env.apiVersion.indexOf('/') + 1);
      throw badRequest(
        `${env.kind} in version "${version}" cannot be handled as a ${expectedKind ?? env.kind}: ${e.message}`,
      );
    }
    throw badRequest(
      `the object provided is unrecognized (must be of type ${expectedKind ?? 'unknown'}): ${e.message} (${summary(body)})`,
    );
  }
}
