/**
 * Making sure a container's image is on the node before it starts
 * (pkg/kubelet/images/image_manager.go): pull policy, `Pulling`/`Pulled`
 * events, `ErrImagePull` then `ImagePullBackOff` on the shared back-off curve
 * with retries, `InvalidImageName`, `ErrImageNeverPull`.
 */
import type { ObjectsByResource } from '../api/resourceObjects';
import { defaultPullPolicy } from '../admission/defaults/container';
import type { ContainerRuntime } from './containerRuntime';
import { imageSize, isMissingImage, normalizedImage, pullNotFoundError } from './images';
import { msg } from './messages';
import type { WorkerHost } from './workerHost';
import { draw } from './workerHost';

export interface PullScheduler {
  pod(): ObjectsByResource['pods'];
  /** Runs `fn` later as pod work (the status is written after it). */
  later(delayMs: number, fn: () => void): void;
  at(due: number, fn: () => void): void;
}

export type PullOutcome = 'ready' | 'pending' | 'failed';

/**
 * Returns 'ready' when the container can be created now, 'pending' when a
 * pull is under way (`onReady` runs when it succeeds, possibly after
 * back-off retries), 'failed' when it cannot start (invalid name, Never).
 */
export function ensureImage(host: WorkerHost, s: PullScheduler, c: ContainerRuntime, onReady: () => void): PullOutcome {
  const image = c.spec.image ?? '';
  const event = (type: 'Normal' | 'Warning', reason: string, text: string) =>
    host.recorder.event(s.pod(), type, reason, text);
  if ('error' in c.image) {
    const text = msg.invalidTag(image, c.image.error);
    event('Warning', 'InspectFailed', text);
    event('Warning', 'Failed', msg.error('InvalidImageName'));
    c.state = { kind: 'waiting', reason: 'InvalidImageName', message: text };
    return 'failed';
  }
  const ref = c.image;
  const present = host.images.has(normalizedImage(ref));
  const policy = c.spec.imagePullPolicy ?? defaultPullPolicy(image);
  if (policy === 'Never' && !present) {
    const text = msg.neverPull(image);
    event('Warning', 'ErrImageNeverPull', text);
    event('Warning', 'Failed', msg.error('ErrImageNeverPull'));
    c.state = { kind: 'waiting', reason: 'ErrImageNeverPull', message: text };
    return 'failed';
  }
  if (present && policy !== 'Always') {
    event('Normal', 'Pulled', msg.present(image));
    return 'ready';
  }
  pull(host, s, c, onReady, present);
  return 'pending';
}

function pull(host: WorkerHost, s: PullScheduler, c: ContainerRuntime, onReady: () => void, present: boolean): void {
  const image = c.spec.image ?? '';
  const ref = c.image as Exclude<ContainerRuntime['image'], { error: string }>;
  const pod = s.pod();
  const key = `${pod.metadata?.uid ?? ''}_${image}`;
  const event = (type: 'Normal' | 'Warning', reason: string, text: string) =>
    host.recorder.event(s.pod(), type, reason, text);
  event('Normal', 'Pulling', msg.pulling(image));
  const took = draw(host, present ? host.delays.repull : host.delays.pull);
  s.later(took, () => {
    if (!isMissingImage(ref) && !c.behavior.imageMissing) {
      host.images.add(normalizedImage(ref));
      event('Normal', 'Pulled', msg.pulled(image, took, imageSize(ref)));
      // upstream: images/image_manager.go: EnsureImageExists ends a successful pull with `m.backOff.GC()`.
      host.pullBackoff.gc(host.clock.now());
      onReady();
      return;
    }
    const err = pullNotFoundError(ref);
    event('Warning', 'Failed', msg.pullFailed(image, err));
    event('Warning', 'Failed', msg.error('ErrImagePull'));
    host.pullBackoff.next(key, host.clock.now());
    c.state = { kind: 'waiting', reason: 'ErrImagePull', message: err };
    c.busy = false;
    s.later(host.delays.sync, () => {
      event('Normal', 'BackOff', msg.pullBackOff(image));
      event('Warning', 'Failed', msg.error('ImagePullBackOff'));
      c.state = {
        kind: 'waiting',
        reason: 'ImagePullBackOff',
        message: `${msg.pullBackOff(image)}: ErrImagePull: ${err}`,
      };
      s.at(host.pullBackoff.windowEnd(key) ?? host.clock.now(), () => {
        c.busy = true;
        pull(host, s, c, onReady, present);
      });
    });
  });
}
