/**
 * The string formats a CRD schema's `format` is checked against, as kube-openapi's strfmt registry does for the
 * formats apiextensions supports (pkg/apiserver/validation/formats.go: `supportedFormats`). A format not listed
 * is not checked, as upstream.
 */

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID_VERSION = (v: number) =>
  new RegExp(`^[0-9a-f]{8}-?[0-9a-f]{4}-?${v}[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`, 'i');
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const DURATION_UNIT = /^[-+]?(\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h|d|w)/;
const MAC = /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$|^([0-9a-f]{4}\.){2}[0-9a-f]{4}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

function isIPv6(s: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(s) || !s.includes(':')) return false;
  const double = s.split('::');
  if (double.length > 2) return false;
  const groups = (x: string) => (x === '' ? [] : x.split(':'));
  let parts = [...groups(double[0]), ...(double.length === 2 ? groups(double[1]) : [])];
  let slots = 8;
  const last = parts[parts.length - 1];
  if (last !== undefined && last.includes('.')) {
    if (!isIPv4(last)) return false;
    parts = parts.slice(0, -1);
    slots = 6;
  }
  if (!parts.every((p) => /^[0-9a-fA-F]{1,4}$/.test(p))) return false;
  return double.length === 2 ? parts.length < slots : parts.length === slots;
}

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (m === null) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function isDuration(s: string): boolean {
  let rest = s.trim();
  if (rest === '0') return true;
  if (rest === '') return false;
  while (rest !== '') {
    const m = DURATION_UNIT.exec(rest);
    if (m === null) return false;
    rest = rest.slice(m[0].length).trim();
  }
  return true;
}

const CHECKS: Readonly<Record<string, (s: string) => boolean>> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: (s) => /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s) || s.startsWith('/'),
  email: (s) => EMAIL.test(s),
  hostname: (s) => s.length <= 253 && DNS1123_SUBDOMAIN.test(s.toLowerCase()),
  ipv4: isIPv4,
  ipv6: isIPv6,
  cidr: (s) => {
    const slash = s.indexOf('/');
    if (slash < 0) return false;
    const ip = s.slice(0, slash);
    const bits = s.slice(slash + 1);
    if (!/^\d{1,3}$/.test(bits)) return false;
    return isIPv4(ip) ? Number(bits) <= 32 : isIPv6(ip) && Number(bits) <= 128;
  },
  mac: (s) => MAC.test(s),
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID_VERSION(3).test(s),
  uuid4: (s) => UUID_VERSION(4).test(s),
  uuid5: (s) => UUID_VERSION(5).test(s),
  date: isDate,
  'date-time': (s) => {
    const m = DATE_TIME.exec(s);
    return (
      m !== null && isDate(`${m[1]}-${m[2]}-${m[3]}`) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 61
    );
  },
  duration: isDuration,
  byte: (s) => BASE64.test(s),
  datetime: (s) => CHECKS['date-time'](s),
};

/** Whether `value` is valid for `format`; true for formats that are not checked. */
export function matchesFormat(format: string, value: string): boolean {
  const check = Object.hasOwn(CHECKS, format) ? CHECKS[format] : undefined;
  return check === undefined ? true : check(value);
}
