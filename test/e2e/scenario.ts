/**
 * The e2e suite's workspace and how it reads the cluster tree: which rows are
 * the `web` Deployment's pods, which are running and ready, where they run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TreeRow } from './harness/workbench';

const root = fileURLToPath(new URL('../..', import.meta.url));

const EXAMPLE_WEB_YAML = readFileSync(join(root, 'examples', 'web.yaml'), 'utf8');

/** The example Deployment (examples/web.yaml) at `replicas`. */
export function webYaml(replicas: number): string {
  const text = EXAMPLE_WEB_YAML.replace(/^ {2}replicas: \d+$/m, `  replicas: ${replicas}`);
  if (!text.includes(`\n  replicas: ${replicas}\n`)) throw new Error('examples/web.yaml has no `  replicas:` line');
  return text;
}

/**
 * The example Deployment as the workspace starts with it: 2 replicas, so that
 * saving it at 3 is visibly what creates the third pod.
 */
export const WEB_YAML = webYaml(2);

/** `publisher.name`: the extension's storage folders are named after it. */
export const EXTENSION_ID = ((pkg: { publisher: string; name: string }) => `${pkg.publisher}.${pkg.name}`)(
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')),
);

export const WORKSPACE_FILES: Readonly<Record<string, string>> = {
  'web.yaml': WEB_YAML,
  'config.yaml': readFileSync(join(root, 'examples', 'config.yaml'), 'utf8'),
};

/**
 * Speed 20: the node lifecycle's 40 s grace and the 300 s eviction toleration
 * pass in seconds, with Fast-forward for the rest. The workspace is applied at
 * start-up without the question asked once per workspace, and saves apply on
 * Ctrl+S (the default).
 */
export const SANDBOX_SETTINGS: Readonly<Record<string, unknown>> = {
  'kubeReconcile.sandbox.speed': 20,
  'kubeReconcile.selfHeal': true,
  'kubeReconcile.applyOn': 'explicitSave',
  'kubeReconcile.applyOnStartup': 'always',
};

/** The 1-based line of the Deployment's `replicas:` in `text`. */
export function replicasLine(text: string): number {
  const index = text.split('\n').findIndex((l) => /^ {2}replicas: \d+$/.test(l));
  if (index < 0) throw new Error('no replicas line');
  return index + 1;
}

/** A `web` pod: `web-<template hash>-<5 chars>`. */
const WEB_POD = /^web-[a-z0-9]+-[a-z0-9]{5}$/;
/** Running and ready (the tree adds `0/1 ready` while not), then the node. */
const RUNNING_READY = /^Running · (node-\d+) · /;

export interface PodRow {
  name: string;
  node: string;
}

/** The `web` pods shown running and ready, once each (a pod can show under its node and its ReplicaSet). */
export function runningWebPods(rows: readonly TreeRow[]): PodRow[] {
  const seen = new Map<string, PodRow>();
  for (const r of rows) {
    const m = RUNNING_READY.exec(r.description);
    if (WEB_POD.test(r.label) && m) seen.set(r.label, { name: r.label, node: m[1] });
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Every `web` pod the tree shows, whatever its state. */
export function allWebPods(rows: readonly TreeRow[]): string[] {
  return [...new Set(rows.filter((r) => WEB_POD.test(r.label)).map((r) => r.label))].sort();
}

/** The `web` Deployment's row (its description is READY, `3/3`). */
export function deploymentRow(rows: readonly TreeRow[]): TreeRow | undefined {
  return rows.find((r) => r.label === 'web' && /^\d+\/\d+$/.test(r.description));
}

/** `node-1`… rows and their descriptions (`Ready · 2 pods`). */
export function nodeRows(rows: readonly TreeRow[]): TreeRow[] {
  return rows.filter((r) => /^node-\d+$/.test(r.label));
}
