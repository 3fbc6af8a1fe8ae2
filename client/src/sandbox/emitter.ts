/**
 * A minimal event emitter for the vscode-free sandbox client: listeners are
 * called in order, and one that throws does not keep the others from running.
 */
import type { Disposable } from './connection';

export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  on(listener: (value: T) => void): Disposable {
    const wrapped = (value: T) => listener(value);
    this.listeners.add(wrapped);
    return { dispose: () => this.listeners.delete(wrapped) };
  }

  fire(value: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(value);
      } catch (e) {
        queueMicrotask(() => {
          throw e;
        });
      }
    }
  }
}
