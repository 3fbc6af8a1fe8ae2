/**
 * Service ClusterIP and NodePort allocation, as the API server's service
 * registry does it: random free values from the configured ranges, drawn
 * from the sandbox's seeded generator.
 */
import type { SeededRandom } from '../clock/random';

/** 10.96.0.0/12, the kubeadm default service range. */
const SERVICE_CIDR_BASE = (10 << 24) | (96 << 16);
const SERVICE_CIDR_SIZE = 1 << 20;
export const NODE_PORT_MIN = 30000;
export const NODE_PORT_MAX = 32767;

export function ipToString(n: number): string {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export function ipFromString(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + Number(p), 0);
}

export class ServiceAllocators {
  private readonly ips = new Set<string>();
  private readonly ports = new Set<number>();

  constructor(private readonly random: SeededRandom) {}

  /** The first address of the range, which the `kubernetes` service takes. */
  static readonly KUBERNETES_SERVICE_IP = ipToString(SERVICE_CIDR_BASE + 1);

  inServiceRange(ip: string): boolean {
    const n = ipFromString(ip);
    return n !== undefined && n > SERVICE_CIDR_BASE && n < SERVICE_CIDR_BASE + SERVICE_CIDR_SIZE - 1;
  }

  isIpTaken(ip: string): boolean {
    return this.ips.has(ip);
  }

  isPortTaken(port: number): boolean {
    return this.ports.has(port);
  }

  reserveIp(ip: string): void {
    this.ips.add(ip);
  }

  reservePort(port: number): void {
    this.ports.add(port);
  }

  releaseIp(ip: string | undefined): void {
    if (ip) this.ips.delete(ip);
  }

  releasePort(port: number | undefined): void {
    if (port !== undefined) this.ports.delete(port);
  }

  /** A free address; it is taken only once the Service is stored (`reserveIp`), so a rejected write leaks nothing. */
  allocateIp(): string {
    for (let attempt = 0; attempt < 1000; attempt++) {
      const ip = ipToString(SERVICE_CIDR_BASE + 2 + this.random.int(SERVICE_CIDR_SIZE - 3));
      if (!this.ips.has(ip)) return ip;
    }
    throw new Error('range is full');
  }

  /** A free node port; taken only once stored (`reservePort`). */
  allocatePort(): number {
    const span = NODE_PORT_MAX - NODE_PORT_MIN + 1;
    const start = this.random.int(span);
    for (let i = 0; i < span; i++) {
      const port = NODE_PORT_MIN + ((start + i) % span);
      if (!this.ports.has(port)) return port;
    }
    throw new Error('range is full');
  }
}
