// Types of what scripts/kubectl.mjs exports, for the kubectl harnesses and their unit tests.

/** The npm package whose lib/layer.zip holds kubectl and helm. */
export const LAYER_PACKAGE: string;
/** The kubectl minor the packaged binary must report ('v1.32.'). */
export const KUBECTL_MINOR: string;
/** Whether this machine (or the one described) runs the packaged Linux x64 binaries. */
export function canRunPackaged(host?: { platform?: string; arch?: string }): boolean;
/** The packaged tool's path, extracted from the layer's zip on first use; throws when it cannot be. */
export function extractPackaged(tool?: 'kubectl' | 'helm', options?: { root?: string }): string;
/** `kubectl version --client -o json`'s gitVersion for `bin`, or undefined when it does not run. */
export function kubectlVersion(bin: string): string | undefined;
/** The first executable named `name` in the directories of `path`, or undefined. */
export function onPath(name: string, path: string): string | undefined;
export type FoundKubectl =
  | { bin: string; version: string; source: 'packaged' | 'PATH'; found: string }
  | { bin: undefined; reason: string };
/** The packaged kubectl v1.32 where it runs, else the kubectl on `path`; `found` or `reason` says which or why not. */
export function findKubectl(options?: { path?: string; root?: string; platform?: string; arch?: string }): FoundKubectl;
