/**
 * Kubernetes' IP and CIDR libraries (upstream: apiserver/pkg/cel/library/ip.go, cidr.go): `ip`, `isIP`, `cidr`,
 * `isCIDR` and the methods of `net.IP` and `net.CIDR`, parsing as Go's netip does (no zones, no IPv4-mapped IPv6
 * addresses, no leading zeros in IPv4).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';

export class IPAddress {
  constructor(
    readonly family: 4 | 6,
    readonly value: bigint,
  ) {}
  get bits(): number {
    return this.family === 4 ? 32 : 128;
  }
  toString(): string {
    return this.family === 4 ? ipv4Text(this.value) : ipv6Text(this.value);
  }
}

export class CIDRPrefix {
  constructor(
    readonly ip: IPAddress,
    readonly prefix: number,
  ) {}
  toString(): string {
    return `${this.ip.toString()}/${this.prefix}`;
  }
}

function parseIPv4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return undefined;
    v = (v << 8n) | BigInt(p);
  }
  return v;
}

function parseIPv6(s: string): bigint | undefined {
  if (s.includes('%')) return undefined;
  let text = s;
  let tail: bigint | undefined;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    tail = parseIPv4(text.slice(lastColon + 1));
    if (tail === undefined) return undefined;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): string[] => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return undefined;
  let v = 0n;
  for (const g of [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest]) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    v = (v << 16n) | BigInt(`0x${g}`);
  }
  if (tail !== undefined) v = (v & ~0xffffffffn) | tail;
  return v;
}

/** An address, or undefined when Go's netip.ParseAddr (with Kubernetes' restrictions) refuses it. */
export function parseIP(s: string): IPAddress | undefined {
  if (s.includes(':')) {
    const v = parseIPv6(s);
    if (v === undefined || v >> 32n === 0xffffn) return undefined; // IPv4-mapped IPv6 is refused upstream
    return new IPAddress(6, v);
  }
  const v = parseIPv4(s);
  return v === undefined ? undefined : new IPAddress(4, v);
}

export function parseCIDR(s: string): CIDRPrefix | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(s.slice(0, slash));
  const bits = s.slice(slash + 1);
  if (ip === undefined || !/^(0|[1-9]\d*)$/.test(bits) || Number(bits) > ip.bits) return undefined;
  return new CIDRPrefix(ip, Number(bits));
}

function ipv4Text(v: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 255n)).join('.');
}

function ipv6Text(v: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((v >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

function mask(bits: number, prefix: number): bigint {
  return ((1n << BigInt(bits)) - 1n) ^ ((1n << BigInt(bits - prefix)) - 1n);
}

function contains(c: CIDRPrefix, ip: IPAddress): boolean {
  if (ip.family !== c.ip.family) return false;
  const m = mask(ip.bits, c.prefix);
  return (ip.value & m) === (c.ip.value & m);
}

function requireIP(s: string): IPAddress {
  const ip = parseIP(s);
  if (ip === undefined)
    throw new EvaluationError(
      `IP Address "${s}" parse error during conversion from string: ParseAddr("${s}"): unable to parse IP`,
    );
  return ip;
}

function requireCIDR(s: string): CIDRPrefix {
  const c = parseCIDR(s);
  if (c === undefined)
    throw new EvaluationError(
      `network address parse error during conversion from string: netip.ParsePrefix("${s}"): bad prefix`,
    );
  return c;
}

export function registerIP(env: Environment): void {
  env.registerType('net.IP', IPAddress);
  env.registerType('net.CIDR', CIDRPrefix);
  env.registerFunction('ip(string): net.IP', requireIP);
  env.registerFunction('isIP(string): bool', (s: string) => parseIP(s) !== undefined);
  env.registerFunction('string(net.IP): string', (ip: IPAddress) => ip.toString());
  env.registerFunction('net.IP.family(): int', (ip: IPAddress) => BigInt(ip.family));
  env.registerFunction('net.IP.isUnspecified(): bool', (ip: IPAddress) => ip.value === 0n);
  env.registerFunction('net.IP.isLoopback(): bool', (ip: IPAddress) =>
    ip.family === 4 ? ip.value >> 24n === 127n : ip.value === 1n,
  );
  env.registerFunction('net.IP.isLinkLocalMulticast(): bool', (ip: IPAddress) =>
    ip.family === 4 ? ip.value >> 8n === 0xe00000n : ip.value >> 112n === 0xff02n,
  );
  env.registerFunction('net.IP.isLinkLocalUnicast(): bool', (ip: IPAddress) =>
    ip.family === 4 ? ip.value >> 16n === 0xa9fen : ip.value >> 118n === 0x3fan,
  );
  env.registerFunction('net.IP.isGlobalUnicast(): bool', (ip: IPAddress) => {
    if (ip.family === 4)
      return !(
        ip.value === 0xffffffffn ||
        ip.value === 0n ||
        ip.value >> 24n === 127n ||
        ip.value >> 28n === 0xen ||
        ip.value >> 16n === 0xa9fen
      );
    return !(ip.value === 0n || ip.value === 1n || ip.value >> 120n === 0xffn || ip.value >> 118n === 0x3fan);
  });
  env.registerOperator(
    'net.IP == net.IP',
    (a: IPAddress, b: IPAddress) => a.family === b.family && a.value === b.value,
  );
  env.registerFunction('cidr(string): net.CIDR', requireCIDR);
  env.registerFunction('isCIDR(string): bool', (s: string) => parseCIDR(s) !== undefined);
  env.registerFunction('string(net.CIDR): string', (c: CIDRPrefix) => c.toString());
  env.registerFunction('net.CIDR.containsIP(net.IP): bool', contains);
  env.registerFunction('net.CIDR.containsIP(string): bool', (c: CIDRPrefix, s: string) => contains(c, requireIP(s)));
  const containsCIDR = (c: CIDRPrefix, o: CIDRPrefix): boolean => o.prefix >= c.prefix && contains(c, o.ip);
  env.registerFunction('net.CIDR.containsCIDR(net.CIDR): bool', containsCIDR);
  env.registerFunction('net.CIDR.containsCIDR(string): bool', (c: CIDRPrefix, s: string) =>
    containsCIDR(c, requireCIDR(s)),
  );
  env.registerFunction('net.CIDR.ip(): net.IP', (c: CIDRPrefix) => c.ip);
  env.registerFunction('net.CIDR.prefixLength(): int', (c: CIDRPrefix) => BigInt(c.prefix));
  env.registerFunction(
    'net.CIDR.masked(): net.CIDR',
    (c: CIDRPrefix) => new CIDRPrefix(new IPAddress(c.ip.family, c.ip.value & mask(c.ip.bits, c.prefix)), c.prefix),
  );
  env.registerOperator('net.CIDR == net.CIDR', (a: CIDRPrefix, b: CIDRPrefix) => a.toString() === b.toString());
}
