/**
 * The output of `kubectl describe`: PrefixWriter's indentation levels over Go's tabwriter, flushed before the events
 * table so that it aligns on its own (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go — PrefixWriter).
 */
import { tabwriter } from './tabwriter';

export class PrefixWriter {
  private done = '';
  private pending = '';

  write(level: number, text: string): void {
    this.pending += '  '.repeat(level) + text;
  }

  flush(): void {
    if (this.pending === '') return;
    this.done += tabwriter(this.pending);
    this.pending = '';
  }

  text(): string {
    this.flush();
    return this.done;
  }
}

export const L0 = 0;
export const L1 = 1;
export const L2 = 2;
export const L3 = 3;
