/** Request options for the API server's verbs, named as in the Kubernetes API. */
/** `?fieldValidation=`: what a write does with unknown and duplicate fields (sandbox/apiserver/fieldValidation.ts). */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface WriteOptions {
  /** `?dryRun=All`: admit and validate, change nothing. */
  dryRun?: boolean;
  /** Namespace from the request path; must agree with the body's when both are set. */
  namespace?: string;
  /**
   * `?fieldManager=`: who makes this write. Recorded in `metadata.managedFields`
   * (operation Update, or Apply for server-side apply, which requires it).
   * Without one — the sandbox's own components — managedFields stay as they are.
   */
  fieldManager?: string;
  /** `?force=true` on server-side apply: take over conflicting fields instead of failing with 409. */
  force?: boolean;
  /**
   * `?fieldValidation=`: what becomes of fields the schema does not declare, or that the body writes twice, on
   * create, update and JSON / merge / strategic patches. `Strict` fails the write (400 `strict decoding error:
   * unknown field "spec.foo"`; 422 for a patch), `Warn` (the default, as kube-apiserver's) drops them and reports
   * each to `warn`, `Ignore` drops them silently. Server-side apply refuses unknown fields whatever the mode.
   */
  fieldValidation?: FieldValidation;
  /** Receives the write's warnings (`unknown field "spec.foo"`), which the HTTP API sends as `Warning` headers. */
  warn?: (text: string) => void;
}

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Page size; a `continue` token is returned when more remain. */
  limit?: number;
  continue?: string;
}

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface DeleteOptions {
  dryRun?: boolean;
  propagationPolicy?: PropagationPolicy;
  /** Pods only: seconds until the kubelet must have stopped it; 0 deletes at once. */
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface WatchOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /**
   * Unset or "0": start with ADDED for every current object. Otherwise: changes after this version (410 if compacted).
   */
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  /** With bookmarks: mark the end of the initial ADDED events with a BOOKMARK. */
  sendInitialEvents?: boolean;
}

/** JSON patch, JSON merge patch, strategic merge patch, server-side apply. */
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';
