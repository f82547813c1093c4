import type { KeyedStore, StoreProvider } from '@corekit/abstractions';
import { MemoryStoreProvider } from '@corekit/engine-core';

/**
 * A memory store provider whose `list` can be held at a gate, so a test can keep a job run in progress
 * while it triggers another. Counts how many `list` calls were in progress at once.
 */
export class GatedStoreProvider implements StoreProvider {
  readonly kind = 'gated-memory';
  readonly durable = false;
  readonly shared = false;
  maxConcurrentLists = 0;
  private active = 0;
  private gate: Promise<void> | null = null;
  private release: (() => void) | null = null;
  private entered: (() => void) | null = null;
  private readonly inner = new MemoryStoreProvider();

  /** Holds every `list` from now on; resolves once one has reached the gate. */
  hold(): Promise<void> {
    this.gate = new Promise((resolve) => (this.release = resolve));
    return new Promise((resolve) => (this.entered = resolve));
  }

  open<T>(name: string, options?: Parameters<StoreProvider['open']>[1]): KeyedStore<T> {
    const store = this.inner.open<T>(name, options);
    return {
      name: store.name,
      get: (key) => store.get(key),
      put: (key, value, putOptions) => store.put(key, value, putOptions),
      delete: (key, deleteOptions) => store.delete(key, deleteOptions),
      count: () => store.count(),
      list: async (listOptions) => {
        this.active += 1;
        this.maxConcurrentLists = Math.max(this.maxConcurrentLists, this.active);
        try {
          if (this.gate) {
            this.entered?.();
            const gate = this.gate;
            this.gate = null;
            await gate;
          }
          return await store.list(listOptions);
        } finally {
          this.active -= 1;
        }
      },
    };
  }

  /** Lets the held `list` go on. */
  releaseHeld(): void {
    this.release?.();
  }
}
