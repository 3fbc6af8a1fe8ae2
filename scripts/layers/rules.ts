/**
 * The layers of Kube Reconcile, as the build enforces them (`npm run check:layers`, part of `npm test`).
 * ARCHITECTURE.md ("Layers") draws the same table; change both together.
 *
 * Lowest first: core ← client-side ← components ← cluster ← edges. A module may import itself, the modules
 * it names in `mayImport`, and — for types only (`import type`, erased at build) — those in `mayImportTypes`.
 * Everything else is a violation, and so is a file that belongs to no module. No file names a library with
 * `/// <reference lib="dom" />`: the DOM comes only from the tsconfig of the programs that run in a page
 * (client/webview/tsconfig.json, test/e2e/tsconfig.json), because a reference directive puts DOM globals in scope
 * for every file of whichever program reaches it.
 */

export interface Module {
  /** Short name used in messages and in other modules' lists. */
  readonly name: string;
  readonly layer: 'core' | 'client-side' | 'components' | 'cluster' | 'plan' | 'edges' | 'language server' | 'outside';
  /** Folders (ending in `/`) or files, relative to the root. A file belongs to the longest that matches. */
  readonly paths: readonly string[];
  /** Modules it may import at run time. `*` is any module. */
  readonly mayImport: readonly string[];
  /** Modules it may import types from (nothing at run time), besides `mayImport`. */
  readonly mayImportTypes?: readonly string[];
  /** Packages (`npm:<name>`) and `node:` built-ins it must not import, each with why. */
  readonly forbidden?: readonly { readonly target: string; readonly why: string }[];
  /** One line: what it is and why its imports are limited so. */
  readonly why: string;
  /**
   * Files (or folders, ending in `/`) its code must not load even indirectly: following imports that load code
   * (`import type` excluded) from any of its files, through any module, none of these may be reached.
   */
  readonly neverLoads?: { readonly paths: readonly string[]; readonly why: string };
}

/** A single import allowed in spite of the table, until the change named in `why` lands. */
export interface Exception {
  readonly from: string;
  /** A file or a folder (ending in `/`). */
  readonly to: string;
  readonly why: string;
}

const NO_VSCODE = {
  target: 'npm:vscode',
  why: 'only the extension host has the vscode API; this code also runs in the worker, the CLI or the language server',
};
const NO_NODE_IN_BROWSER = { why: 'the webview runs in a browser: Node built-ins do not exist there' };

const COMPONENTS = ['controllers', 'scheduler', 'kubelet', 'gitops'];
const SANDBOX = ['core', 'client-side', ...COMPONENTS, 'cluster'];

/**
 * The control plane: what the sandbox worker runs and the extension host's bundle must not carry (the host loads
 * `live/`, which may load `sandbox/plan/diff.ts` and core, so the table alone cannot say it).
 * `sandbox/plan/plan.ts` is the plan engine (a forked Cluster); `sandbox/apiserver/apiServer.ts` the API server with
 * its store, admission and CEL.
 */
const NO_CONTROL_PLANE = {
  paths: [
    ...COMPONENTS.map((c) => `sandbox/${c}/`),
    'sandbox/cluster/',
    'sandbox/plan/plan.ts',
    'sandbox/apiserver/apiServer.ts',
  ],
  why:
    'the control plane runs in the sandbox worker (dist/sandboxWorker.js); the extension host sends it requests ' +
    '(client/src/sandbox/protocol.ts) — Plan Against Cluster… too (`planLive`) — and its bundle carries none of it',
};

export const MODULES: readonly Module[] = [
  {
    name: 'core',
    layer: 'core',
    paths: [
      'sandbox/api/',
      'sandbox/store/',
      'sandbox/apiserver/',
      'sandbox/admission/',
      'sandbox/schema/',
      'sandbox/clock/',
      'sandbox/util/',
      'sandbox/printers/',
      'sandbox/manifests/',
      'sandbox/apiextensions/',
      'sandbox/cel/',
      'sandbox/timeline/',
    ],
    mayImport: [],
    forbidden: [NO_VSCODE],
    why: 'the API server and what it stands on: it knows nothing of who calls it',
  },
  {
    name: 'client-side',
    layer: 'client-side',
    paths: ['sandbox/client/', 'sandbox/operations/', 'sandbox/index.ts'],
    mayImport: ['core'],
    forbidden: [NO_VSCODE],
    why: 'informers, caches, the component contract and kubectl-style operations, built only on API verbs',
  },
  ...COMPONENTS.map(
    (name): Module => ({
      name,
      layer: 'components',
      paths: [`sandbox/${name}/`],
      mayImport: ['core', 'client-side'],
      forbidden: [NO_VSCODE],
      why: 'a component talks to the others only through the API server, and is wired only by the cluster',
    }),
  ),
  {
    name: 'cluster',
    layer: 'cluster',
    paths: ['sandbox/cluster/'],
    mayImport: ['core', 'client-side', ...COMPONENTS],
    forbidden: [NO_VSCODE],
    why: 'the composition root: one API server and every component on one clock',
  },
  {
    name: 'plan',
    layer: 'plan',
    paths: ['sandbox/plan/'],
    mayImport: SANDBOX,
    forbidden: [NO_VSCODE],
    why: 'what applying manifests would do, found on a forked Cluster in virtual time: pure, for the CLI and the worker',
  },
  {
    name: 'http',
    layer: 'edges',
    paths: ['sandbox/http/'],
    mayImport: SANDBOX,
    forbidden: [NO_VSCODE],
    why: 'the Kubernetes HTTP API over a Cluster, for kubectl',
  },
  {
    name: 'live',
    layer: 'edges',
    paths: ['live/'],
    mayImport: ['core', 'plan'],
    forbidden: [NO_VSCODE],
    why:
      "real clusters from the user's kubeconfig (read-only unless opened for writes) and snapshots of their state: " +
      'for the CLI and the extension host; the sandbox never imports it',
  },
  {
    name: 'cli',
    layer: 'edges',
    paths: ['cli/'],
    mayImport: [...SANDBOX, 'plan', 'http', 'live', 'language-server', 'package-json'],
    forbidden: [NO_VSCODE],
    why: 'kube-reconcile validate | simulate | serve: the sandbox, its HTTP API and the language services, no editor',
  },
  {
    name: 'worker',
    layer: 'edges',
    paths: ['client/src/worker/'],
    mayImport: [...SANDBOX, 'plan', 'http', 'host-pure'],
    forbidden: [NO_VSCODE],
    why: 'the sandbox worker thread: a Cluster answering the host over client/src/sandbox/protocol.ts',
  },
  {
    name: 'host',
    layer: 'edges',
    paths: ['client/src/'],
    mayImport: ['core', 'client-side', 'http', 'host-pure', 'webview-protocol', 'live'],
    mayImportTypes: [...COMPONENTS, 'cluster', 'plan'],
    neverLoads: NO_CONTROL_PLANE,
    why:
      'the extension host: the control plane runs in the worker, so the host loads no component or cluster code, ' +
      'and it talks to the language server over LSP only',
  },
  {
    name: 'host-pure',
    layer: 'edges',
    paths: [
      'client/src/sandbox/',
      'client/src/model/',
      'client/src/health/',
      'client/src/foresight/diagnostics.ts',
      'client/src/foresight/lenses.ts',
    ],
    mayImport: ['core', 'client-side'],
    mayImportTypes: [...COMPONENTS, 'cluster', 'plan'],
    forbidden: [NO_VSCODE],
    neverLoads: NO_CONTROL_PLANE,
    why:
      "the host's sandbox connection, tree model, health rules and foresight's wording (which the worker computes " +
      'too): testable without VS Code',
  },
  {
    name: 'webview-protocol',
    layer: 'edges',
    paths: ['client/src/webview/protocol.ts'],
    mayImport: ['core', 'host-pure'],
    mayImportTypes: [...COMPONENTS],
    forbidden: [NO_VSCODE],
    neverLoads: NO_CONTROL_PLANE,
    why: 'the messages between the host and the webview, bundled into both',
  },
  {
    name: 'webview',
    layer: 'edges',
    paths: ['client/webview/'],
    mayImport: ['webview-protocol'],
    mayImportTypes: ['core'],
    forbidden: [
      NO_VSCODE,
      ...['fs', 'path', 'crypto', 'worker_threads', 'http', 'https', 'os'].map((m) => ({
        target: `node:${m}`,
        ...NO_NODE_IN_BROWSER,
      })),
    ],
    why: 'the browser side of the webviews: it alone gets the DOM library (client/webview/tsconfig.json)',
  },
  {
    name: 'language-server',
    layer: 'language server',
    paths: ['server/src/'],
    mayImport: ['core'],
    forbidden: [NO_VSCODE],
    why: 'the language server shares core (schema, admission rules, manifest parsing), never the extension',
  },
  {
    name: 'package-json',
    layer: 'outside',
    paths: ['package.json'],
    mayImport: [],
    why: 'the extension manifest (the CLI prints its version)',
  },
  {
    name: 'tests',
    layer: 'outside',
    paths: ['test/'],
    mayImport: ['*'],
    why: 'tests reach whatever they test; nothing imports them',
  },
  {
    name: 'bench',
    layer: 'outside',
    paths: ['bench/'],
    mayImport: ['*'],
    why: 'benchmark scripts; nothing imports them',
  },
  {
    name: 'scripts',
    layer: 'outside',
    paths: ['scripts/'],
    mayImport: ['*'],
    why: 'build and check scripts; nothing imports them',
  },
];

export const EXCEPTIONS: readonly Exception[] = [];

/** The folders the checker reads. */
export const ROOTS: readonly string[] = ['sandbox', 'server', 'client', 'cli', 'live', 'test', 'bench', 'scripts'];
