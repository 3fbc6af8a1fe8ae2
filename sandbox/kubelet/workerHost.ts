/** What a pod worker needs from its kubelet: time, randomness, events, the node's images and IPs, and API access. */
import type { Pod } from 'kubernetes-types/core/v1';
import type { ObjectsByResource } from '../api/resourceObjects';
import type { WirePodStatus } from '../api/types';
import type { Clock } from '../clock/clock';
import type { SeededRandom } from '../clock/random';
import type { Recorder } from '../client/component';
import type { Backoff } from './backoff';
import type { KubeletDelays, Range } from './delays';
import type { Service } from 'kubernetes-types/core/v1';
import type { ReadConfig } from './container/env';
import type { ReadClaim } from './container/volumes';

export interface WorkerHost {
  readonly clock: Clock;
  readonly random: SeededRandom;
  readonly recorder: Recorder;
  readonly delays: KubeletDelays;
  readonly hostIP: string;
  /** Normalised references of the images on this node. */
  readonly images: Set<string>;
  /** Crash-loop back-off, keyed `<pod uid>/<container>`. */
  readonly restartBackoff: Backoff;
  /** Image-pull back-off, keyed `<pod uid>_<image>`. */
  readonly pullBackoff: Backoff;
  allocatePodIP(): string;
  releasePodIP(ip: string): void;
  /** Marks an address a resumed pod already has as in use. */
  reservePodIP(ip: string): void;
  /** The pod as the API server has it now. */
  readPod(namespace: string, name: string): ObjectsByResource['pods'] | undefined;
  /** A ConfigMap or Secret as the API server has it now (environment and volumes). */
  readConfig: ReadConfig;
  /** A PersistentVolumeClaim as the API server has it now. */
  readClaim: ReadClaim;
  /** The Services of a namespace and `default/kubernetes` (the containers' Service environment variables). */
  listServices(namespace: string): Service[];
  /** The node's allocatable CPU (millicores) and memory (bytes). */
  readonly nodeAllocatable: { cpu: number; memory: number };
  /** When the kubelet (and its probe manager) last started. */
  kubeletStartedAt(): number;
  /** The cluster DNS's address for a `….cluster.local` name now (a Service's, a pod's by hostname), or none. */
  dnsLookup(fqdn: string): string | undefined;
  writeStatus(pod: ObjectsByResource['pods'], status: WirePodStatus): void;
  /** The final delete (grace period 0, uid precondition). */
  deletePod(pod: Pod): void;
}

/** A seeded draw from a delay range. */
export function draw(host: WorkerHost, range: Range): number {
  return host.random.between(range[0], range[1]);
}
