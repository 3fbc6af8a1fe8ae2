/**
 * Content negotiation as kube-apiserver does it: the response format from
 * `Accept` (JSON by default; YAML; the `as=Table` and `as=PartialObjectMetadata`
 * conversions of meta.k8s.io), and the decoder from `Content-Type`. Protobuf
 * is not served: an Accept that only offers it is 406.
 */
import { notAcceptable } from '../api/errors';

/** What the body of a response is converted to before encoding. */
export type Conversion = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

export interface OutputFormat {
  encoding: 'json' | 'yaml';
  /** Undefined: the object itself. */
  conversion?: Conversion;
  /** apiVersion of the converted object: `meta.k8s.io/v1` or `meta.k8s.io/v1beta1`. */
  conversionVersion?: string;
}

/** What the response holds: one object, a list, or a stream of watch events. */
export type Target = 'object' | 'list' | 'watch';

export const SERVED_MEDIA_TYPES: readonly string[] = ['application/json', 'application/yaml'];

interface MediaRange {
  type: string;
  subtype: string;
  params: Map<string, string>;
  q: number;
}

function parseRange(text: string): MediaRange | undefined {
  const [full, ...rawParams] = text.split(';');
  const [type, subtype] = full.trim().toLowerCase().split('/');
  if (!type || !subtype) return undefined;
  const params = new Map<string, string>();
  let q = 1;
  for (const p of rawParams) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const key = p.slice(0, eq).trim().toLowerCase();
    const value = p
      .slice(eq + 1)
      .trim()
      .replace(/^"|"$/g, '');
    if (key === 'q') q = Number(value);
    else params.set(key, value);
  }
  return { type, subtype, params, q: Number.isFinite(q) ? q : 0 };
}

/** Accept's media ranges, most preferred first (stable for equal q). */
function parseAccept(accept: string): MediaRange[] {
  return accept
    .split(',')
    .map(parseRange)
    .filter((r): r is MediaRange => r !== undefined && r.q > 0)
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.q - a.r.q || a.i - b.i)
    .map(({ r }) => r);
}

/** The conversion asked for by `as=…;g=…;v=…`, if it applies to `target`; null when the range cannot be served. */
function conversionOf(
  range: MediaRange,
  target: Target,
): Pick<OutputFormat, 'conversion' | 'conversionVersion'> | null {
  const as = range.params.get('as');
  if (as === undefined) return {};
  const group = range.params.get('g');
  const version = range.params.get('v');
  if (group !== 'meta.k8s.io' || (version !== 'v1' && version !== 'v1beta1')) return null;
  const conversionVersion = `meta.k8s.io/${version}`;
  if (as === 'Table') return { conversion: 'Table', conversionVersion };
  if (as === 'PartialObjectMetadata' && target !== 'list')
    return { conversion: 'PartialObjectMetadata', conversionVersion };
  if (as === 'PartialObjectMetadataList' && target === 'list')
    return { conversion: 'PartialObjectMetadataList', conversionVersion };
  return null;
}

function encodingOf(range: MediaRange, target: Target): OutputFormat['encoding'] | undefined {
  const { type, subtype } = range;
  if (type === '*' && subtype === '*') return 'json';
  if (type !== 'application') return undefined;
  if (subtype === 'json' || subtype === '*') return 'json';
  if (subtype === 'yaml' && target !== 'watch') return 'yaml';
  return undefined;
}

/**
 * The response format for an `Accept` header (absent or empty: JSON). 406
 * NotAcceptable when no offered range can be served (e.g. protobuf only).
 */
export function negotiateOutput(accept: string | undefined, target: Target): OutputFormat {
  if (accept === undefined || accept.trim() === '') return { encoding: 'json' };
  for (const range of parseAccept(accept)) {
    const encoding = encodingOf(range, target);
    if (!encoding) continue;
    const conversion = conversionOf(range, target);
    if (conversion === null) continue;
    if (encoding === 'yaml' && conversion.conversion) continue;
    return { encoding, ...conversion };
  }
  throw notAcceptable(SERVED_MEDIA_TYPES);
}

/** The media type of a Content-Type header, lower-cased without parameters; '' when absent. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}
