/**
 * Image references as containerd sees them: validation (`InvalidImageName`),
 * normalisation (`nginx` → `docker.io/library/nginx:latest`), a stable
 * digest and size per image, and which images are "missing" from the
 * registry (tag `:missing`, a name saying so: `does-not-exist`, `non-existing`,
 * `nonexistent`, `non-existent`, or an nginx release tag past 1.39 such as the docs' `nginx:1.161`).
 */
import { SeededRandom } from '../clock/random';
import { boundedMemo } from '../util/memo';

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DOMAIN = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::\d+)?$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

export interface ImageRef {
  /** `docker.io/library/nginx` */
  repository: string;
  tag?: string;
  digest?: string;
}

/** `nginx:1.27`, `docker.io/library/busybox@sha256:…` → `nginx`, `busybox`. */
export function imageBaseName(image: string): string {
  const noDigest = image.split('@')[0];
  const last = noDigest.slice(noDigest.lastIndexOf('/') + 1);
  const colon = last.indexOf(':');
  return colon < 0 ? last : last.slice(0, colon);
}

/** Parses a reference, or returns upstream's parse error text. */
export function parseImage(image: string): ImageRef | { error: string } {
  const bad = (why = 'invalid reference format') => ({
    error: `couldn't parse image name ${JSON.stringify(image)}: ${why}`,
  });
  if (image === '') return bad();
  let rest = image;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return bad();
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return bad();
  }
  const parts = rest.split('/');
  let domain = 'docker.io';
  if (parts.length > 1 && (parts[0].includes('.') || parts[0].includes(':') || parts[0] === 'localhost')) {
    domain = parts.shift()!;
    if (!DOMAIN.test(domain)) return bad();
  }
  if (domain === 'docker.io' && parts.length === 1) parts.unshift('library');
  const path = parts.join('/');
  if (parts.some((p) => !COMPONENT.test(p.toLowerCase()))) return bad();
  if (path !== path.toLowerCase()) return bad(`invalid reference format: repository name (${path}) must be lowercase`);
  return { repository: `${domain}/${path}`, tag, digest };
}

/**
 * `parseImage`, one frozen answer per reference shared by every container of it (issue 16: a parsed reference and its
 * repository string per container otherwise).
 */
export const sharedImageRef: (image: string) => Readonly<ImageRef> | { readonly error: string } = boundedMemo(
  4096,
  (image: string) => image,
  (image: string) => Object.freeze(parseImage(image)),
);

/** The fully qualified reference containerd reports (`docker.io/library/nginx:latest`). */
export function normalizedImage(ref: ImageRef): string {
  if (ref.digest) return `${ref.repository}${ref.tag ? `:${ref.tag}` : ''}@${ref.digest}`;
  return `${ref.repository}:${ref.tag ?? 'latest'}`;
}

/** Words with which examples name an image no registry has (`non-existing-repo/non-existing-image:example`). */
const MISSING_WORDS = /does-not-exist|non-?existing|non-?existent/;

/**
 * nginx's releases are 1.N.P with N below 40 (1.27 in 2024): a tag `1.N` or `1.N.P` past that names no release, as the
 * Deployment docs' typo `nginx:1.161` (for 1.16.1), whose rollout then stalls on ImagePullBackOff.
 */
const NGINX_RELEASE_TAG = /^1\.(\d+)(?:\.\d+)?(?:-[a-z0-9.-]+)?$/;

/** A registry has no such image: tag `missing`, a name saying it does not exist, or an nginx release that never was. */
export function isMissingImage(ref: ImageRef): boolean {
  if (ref.tag === 'missing' || MISSING_WORDS.test(ref.repository)) return true;
  if (ref.repository === 'docker.io/library/nginx' && ref.tag !== undefined) {
    const release = NGINX_RELEASE_TAG.exec(ref.tag);
    if (release && Number(release[1]) >= 40) return true;
  }
  return false;
}

/** `docker.io/library/nginx@sha256:…`: the same digest for the same reference on every node and run. */
export function imageID(ref: ImageRef): string {
  if (ref.digest) return `${ref.repository}@${ref.digest}`;
  const image = normalizedImage(ref);
  let id = imageIDs.get(image);
  if (id === undefined) {
    const r = new SeededRandom(`image/${image}`);
    const hex: string[] = [];
    for (let i = 0; i < 8; i++) hex.push(r.nextUint32().toString(16).padStart(8, '0'));
    // One flat string per image, shared by every container of it (not a chain of cons strings per container).
    id = [ref.repository, '@sha256:', ...hex].join('');
    imageIDs.set(image, id);
  }
  return id;
}
/** The made-up digest of each image seen (a pure function of the name: every node and pod shares one string). */
const imageIDs = new Map<string, string>();

/** A plausible compressed size in bytes (5–120 MB), stable per image. */
export function imageSize(ref: ImageRef): number {
  const r = new SeededRandom(`image-size/${normalizedImage(ref)}`);
  return 5_000_000 + r.int(115_000_000);
}

/** containerd's error for an image the registry does not have. */
export function pullNotFoundError(ref: ImageRef): string {
  const full = normalizedImage(ref);
  return `rpc error: code = NotFound desc = failed to pull and unpack image ${JSON.stringify(full)}: failed to resolve reference ${JSON.stringify(full)}: ${full}: not found`;
}
