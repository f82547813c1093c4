import path from 'node:path';
import { CoreError, defaultStoreMaxEntries, type StoreProvider } from '@corekit/abstractions';
import { z } from 'zod';
import type { Clock } from '../clock';
import { FileStoreProvider } from './file-store';
import { MemoryStoreProvider } from './memory-store';

/** The configuration section bound by `storesOptionsSchema`. */
export const storesSectionPath = 'Engine:Stores';

/** `Engine:Stores:Provider` values and the provider kind (`StoreProvider.kind`) each one names. */
export const storeProviderKinds = {
  Memory: 'memory',
  File: 'file',
  PostgreSql: 'postgresql',
  Redis: 'redis',
} as const;

/** The packages that install the shared providers, for error messages. */
const sharedProviderPackages: Record<
  string,
  { readonly section: 'PostgreSql' | 'Redis'; readonly call: string; readonly from: string }
> = {
  postgresql: { section: 'PostgreSql', call: 'addPostgresStores(builder)', from: '@corekit/store-postgres' },
  redis: { section: 'Redis', call: 'addRedisStores(builder)', from: '@corekit/store-redis' },
};

/**
 * `Engine:Stores`: where the engine's keyed stores (`builder.openStore`) keep their records. Memory and File
 * are built in (neither is shared between processes); PostgreSQL and Redis come from their packages
 * (`addPostgresStores`, `addRedisStores`), which bind their own sub-sections `Engine:Stores:PostgreSql` and
 * `Engine:Stores:Redis`. `Provider` may be left out: the provider a package installed is then used, else Memory.
 * When set, it must name the provider that is in effect, so a setting never silently loses to a package.
 */
export const storesOptionsSchema = z
  .object({
    /**
     * `Memory` (lost on restart), `File` (durable, one process), `PostgreSql` or `Redis` (durable, shared; the
     * package's `add*Stores` call is required). Default: the provider a package installed, else Memory.
     */
    Provider: z.enum(['Memory', 'File', 'PostgreSql', 'Redis']).optional(),
    /** Directory of the File provider's `<name>.json` files; relative paths resolve against the content root. Required when Provider is File. */
    Directory: z.string().min(1).optional(),
    /** Records a store keeps when `openStore` sets no `maxEntries`, whatever the provider; a put of a new key beyond it fails with STORE_FULL. Default 10000. */
    MaxEntries: z.number().int().positive().default(defaultStoreMaxEntries),
    /**
     * The providers' change feed (`KeyedStore.watch`): the read copies packs keep of shared stores (publication,
     * dispatch, capture, index and run states...) follow each change instead of reading the whole store every
     * refresh interval of the pack.
     */
    ChangeFeed: z
      .object({
        /**
         * Follow the provider's change feed (PostgreSQL LISTEN/NOTIFY, Redis pub/sub, in-process for Memory
         * and File). False: the copies read the whole store every refresh interval of their pack (the
         * behaviour before the feed). Default true.
         */
        Enabled: z.boolean().default(true),
        /**
         * Seconds between two whole reads of a store a copy still makes while the feed is connected: the
         * safety net against a lost notification (every reconnection of the feed also reads the whole store
         * at once). Default 300.
         */
        FullReadIntervalSeconds: z.number().int().min(10).max(86_400).default(300),
      })
      .strict()
      .default({ Enabled: true, FullReadIntervalSeconds: 300 }),
    /** Bound by `addPostgresStores` (@corekit/store-postgres) with its own strict schema. */
    PostgreSql: z.unknown().optional(),
    /** Bound by `addRedisStores` (@corekit/store-redis) with its own strict schema. */
    Redis: z.unknown().optional(),
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

/** The built-in provider `Engine:Stores` selects (Memory or File). Throws for a provider a package must add. */
export function createStoreProvider(
  settings: Omit<StoresOptions, 'ChangeFeed'> & Partial<Pick<StoresOptions, 'ChangeFeed'>>,
  context: StoreProviderContext,
): StoreProvider {
  const common = {
    clock: context.clock,
    defaultMaxEntries: settings.MaxEntries,
    fullReadIntervalMs: (settings.ChangeFeed?.FullReadIntervalSeconds ?? 300) * 1000,
  };
  const provider = settings.Provider ?? 'Memory';
  if (provider === 'Memory') return new MemoryStoreProvider(common);
  if (provider !== 'File') {
    const origin = sharedProviderPackages[storeProviderKinds[provider]];
    throw new RangeError(
      `${storesSectionPath}:Provider ${provider} is installed by ${origin.call} from ${origin.from}`,
    );
  }
  if (settings.Directory === undefined) {
    throw new RangeError(`${storesSectionPath}:Directory is required when Provider is File`);
  }
  return new FileStoreProvider({
    ...common,
    directory: path.resolve(context.contentRoot, settings.Directory),
  });
}

/**
 * The provider every store uses: the one a package installed (`useStoreProvider`), else the built-in one
 * `Engine:Stores:Provider` selects. Refuses, with CONFIGURATION_INVALID naming the keys, every combination
 * where a setting would silently not apply: a `Provider` other than the installed one, `PostgreSql` or `Redis`
 * named without its package, a `Directory` without the File provider, a provider sub-section without its
 * provider.
 */
export function resolveStoreProvider(
  settings: StoresOptions,
  installed: StoreProvider | undefined,
  context: StoreProviderContext,
): StoreProvider {
  const problems: string[] = [];
  const configured = settings.Provider;
  const configuredKind = configured === undefined ? undefined : storeProviderKinds[configured];
  const nameOf = (kind: string): string =>
    Object.entries(storeProviderKinds).find(([, value]) => value === kind)?.[0] ?? kind;
  let kind: string;
  if (installed) {
    kind = installed.kind;
    if (configuredKind !== undefined && configuredKind !== installed.kind) {
      const fix = Object.values(storeProviderKinds).some((value) => value === installed.kind)
        ? `set it to ${nameOf(installed.kind)} or remove it`
        : 'remove it';
      problems.push(
        `${storesSectionPath}:Provider is ${configured}, but a package installed the ${installed.kind} store provider (${sharedProviderPackages[installed.kind]?.call ?? 'useStoreProvider'}): ${fix}, or do not install that provider`,
      );
    }
  } else {
    kind = configuredKind ?? 'memory';
    const origin = configuredKind === undefined ? undefined : sharedProviderPackages[configuredKind];
    if (origin) {
      problems.push(
        `${storesSectionPath}:Provider is ${configured}, but no ${configured} store provider was added: call ${origin.call} from ${origin.from}`,
      );
    }
  }
  if (settings.Directory !== undefined && kind !== 'file') {
    problems.push(
      `${storesSectionPath}:Directory applies to the File provider only, but the store provider is ${kind}: remove it`,
    );
  }
  for (const [sharedKind, origin] of Object.entries(sharedProviderPackages)) {
    if (settings[origin.section] !== undefined && kind !== sharedKind) {
      problems.push(
        `${storesSectionPath}:${origin.section} is configured, but the store provider is ${kind}: call ${origin.call} from ${origin.from}, or remove the section`,
      );
    }
  }
  if (problems.length > 0) {
    throw new CoreError('CONFIGURATION_INVALID', `Invalid configuration:\n- ${problems.join('\n- ')}`, {
      problems,
    });
  }
  return installed ?? createStoreProvider(settings, context);
}
