import path from 'node:path';
import type { StoreProvider } from '@corekit/abstractions';
import { z } from 'zod';
import type { Clock } from '../clock';
import { FileStoreProvider } from './file-store';
import { defaultStoreMaxEntries, MemoryStoreProvider } from './memory-store';

/** The configuration section bound by `storesOptionsSchema`. */
export const storesSectionPath = 'Engine:Stores';

/**
 * `Engine:Stores`: where the engine's keyed stores (`builder.openStore`) keep their records. Neither provider
 * is shared between processes: several replicas need a shared provider (PostgreSQL, Redis) behind the same
 * contract.
 */
export const storesOptionsSchema = z
  .object({
    /** `Memory` (lost on restart, for tests and rebuildable state) or `File` (durable, one process). Default Memory. */
    Provider: z.enum(['Memory', 'File']).default('Memory'),
    /** Directory of the File provider's `<name>.json` files; relative paths resolve against the content root. Required when Provider is File. */
    Directory: z.string().min(1).optional(),
    /** Records a store keeps when `openStore` sets no `maxEntries`; a put of a new key beyond it fails with STORE_FULL. Default 10000. */
    MaxEntries: z.number().int().positive().default(defaultStoreMaxEntries),
  })
  .strict()
  .superRefine((options, context) => {
    if (options.Provider === 'File' && options.Directory === undefined) {
      context.addIssue({ code: 'custom', path: ['Directory'], message: 'is required when Provider is File' });
    }
  });

/** The bound `Engine:Stores` section. */
export type StoresOptions = z.output<typeof storesOptionsSchema>;

/** What `createStoreProvider` needs from the host besides the section. */
export interface StoreProviderContext {
  /** Absolute directory a relative `Directory` resolves against (the engine's content root). */
  readonly contentRoot: string;
  /** The engine's clock (record times and expiry). */
  readonly clock: Clock;
}

/** The provider `Engine:Stores` selects. Throws when the settings did not go through the schema's rules. */
export function createStoreProvider(settings: StoresOptions, context: StoreProviderContext): StoreProvider {
  const common = { clock: context.clock, defaultMaxEntries: settings.MaxEntries };
  if (settings.Provider === 'Memory') return new MemoryStoreProvider(common);
  if (settings.Directory === undefined) {
    throw new RangeError(`${storesSectionPath}:Directory is required when Provider is File`);
  }
  return new FileStoreProvider({
    ...common,
    directory: path.resolve(context.contentRoot, settings.Directory),
  });
}
