import type { StoreProviderTraits } from './stores';

/**
 * Whether records outlive the process and who sees them, as surfaces report it:
 * - `process-memory`: lost when the process stops, seen by this process only (the Memory provider);
 * - `durable-local`: survives a restart, seen by the processes of this node only (the File provider);
 * - `durable-shared`: survives a restart, seen by every replica on the same store (PostgreSQL, Redis);
 * - `shared-memory`: seen by every replica, lost when the store's server restarts.
 */
export type StoreDurability = 'process-memory' | 'durable-local' | 'durable-shared' | 'shared-memory';

/** Who sees the records: this process, this node (one data directory), or every replica on the store. */
export type StoreScope = 'process-local' | 'node-local' | 'shared';

/** The posture of the store a pack keeps state in, derived from the provider's traits (never from configuration). */
export interface StorePosture {
  /** The provider's kind: `memory`, `file`, `postgresql`, `redis`... */
  readonly kind: string;
  readonly durable: boolean;
  readonly shared: boolean;
  readonly durability: StoreDurability;
  readonly scope: StoreScope;
}

/**
 * The one mapping from store traits to the durability and scope surfaces report. Packs call it with
 * `builder.storeTraits()` when a surface is read (after `build()`, when the provider is final), so a provider
 * installed in code, by configuration or by a package (`addPostgresStores`, `addRedisStores`) reports the same.
 */
export function storePostureOf(traits: StoreProviderTraits): StorePosture {
  const { kind, durable, shared } = traits;
  const durability: StoreDurability = durable
    ? shared
      ? 'durable-shared'
      : 'durable-local'
    : shared
      ? 'shared-memory'
      : 'process-memory';
  const scope: StoreScope = shared ? 'shared' : durable ? 'node-local' : 'process-local';
  return { kind, durable, shared, durability, scope };
}

/**
 * The durability as the spec's `retryDurability` / `idempotencyDurability` keys name it: `none` when records do
 * not survive a restart of their holder (Memory; a shared store without persistence), else the durability.
 */
export function durabilityOrNone(posture: StorePosture): StoreDurability | 'none' {
  return posture.durable ? posture.durability : 'none';
}
