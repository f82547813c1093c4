import type { EngineBuilder, StoreClock, StoreProvider } from '@corekit/abstractions';
import { SpanKind } from '@opentelemetry/api';
import { captureTelemetry } from './capture-telemetry';
import { startFixture, type FixtureProcess } from './child-process';
import { expectDatabaseClientTelemetry } from './semantic-convention-expectations';
import { describeStoreChangeFeed } from './store-change-feed-suite';
import { describeStoreContract, storeTestClock } from './store-contract-suite';
import { createTestEngineBuilder } from './test-engine-builder';

/** A provider with connections to close (every shared provider has them). */
export type ClosableStoreProvider = StoreProvider & { close(): Promise<void> };

/** What `describeSharedStoreProvider` needs to know of a provider whose records live on a server. */
export interface SharedStoreProviderSuite<P extends ClosableStoreProvider> {
  /** The provider's `kind` (`postgresql`, `redis`). */
  readonly kind: string;
  /** A namespace (table, key prefix) no other test of the run uses; the package removes them all afterwards. */
  readonly freshNamespace: () => string;
  /**
   * A provider with its own connections on `namespace`. Throw when the server is unreachable: the tests then
   * fail, never skip.
   */
  readonly provider: (
    namespace: string,
    options?: { readonly clock?: StoreClock; readonly defaultMaxEntries?: number },
  ) => P | Promise<P>;
  /**
   * The cross-process test runs `<packageDirectory>/src/test-fixtures/increment-process.ts` twice (through
   * `startFixture`); that file calls `runStoreIncrementReplica` with a factory of the provider.
   */
  readonly replicas: {
    readonly packageDirectory: string;
    /** What the fixture needs besides STORE_NAMESPACE and INCREMENTS (the server's address). */
    readonly environment: Readonly<Record<string, string>>;
    /** Runs on a provider of the namespace before the replicas start (creating the table once). */
    readonly prepare?: (provider: P) => Promise<void>;
  };
  /** A provider aimed at a refused port, with a password (`secret`) in its connection setting. */
  readonly unreachable: {
    readonly provider: () => P;
    readonly secret: string;
    /** What the STORE_UNAVAILABLE message of a call must match (product, store "things", server, cause). */
    readonly message: RegExp;
  };
  /** The database-client semantic conventions the provider follows. */
  readonly telemetry: {
    /** `db.system.name` (`postgresql`, `redis`). */
    readonly system: string;
    /** `db.operation.name` values a put, get, list, count and delete give, each checked. */
    readonly operations: readonly string[];
    /** `db.collection.name` on `namespace`, for a database with tables. */
    readonly collection?: (namespace: string) => string;
  };
  /**
   * The provider's change feed (`@corekit/testing/store-change-feed-suite`): its path, how the server kills the
   * listening connection of a provider, and how a write reaches the server without being announced.
   */
  readonly changeFeed: {
    readonly path: string;
    readonly killFeedConnection: (provider: P) => Promise<void>;
    readonly writeUnannounced: (provider: P, store: string, key: string, value: unknown) => Promise<void>;
  };
  /** The package's `add*Stores` and the `Engine:Stores` section that puts it on `namespace`. */
  readonly registration: {
    readonly section: (namespace: string) => Record<string, unknown>;
    readonly add: (builder: EngineBuilder) => P;
  };
}

/**
 * The tests every shared provider (records on a server, seen by every replica) runs: the store contract
 * (`describeStoreContract`), the change feed (`describeStoreChangeFeed`, with the server killing the listening
 * connection), then what only a shared provider promises. Two processes incrementing one key by
 * compare-and-set lose no update; two provider instances on one namespace see one store (versions, TTL on one
 * manual clock, STORE_FULL); a closed provider reconnects; an unreachable server fails every call with
 * STORE_UNAVAILABLE naming the server and never the password; `add*Stores` serves stores opened before it
 * and closes the provider when the engine stops.
 */
export function describeSharedStoreProvider<P extends ClosableStoreProvider>(
  label: string,
  suite: SharedStoreProviderSuite<P>,
): void {
  describeStoreContract(label, (options) => suite.provider(suite.freshNamespace(), options));
  describeStoreChangeFeed(label, {
    ...suite.changeFeed,
    pair: async () => {
      const namespace = suite.freshNamespace();
      const writer = await suite.provider(namespace);
      return [writer, await suite.provider(namespace)] as const;
    },
    close: async (providers) => {
      await Promise.all(providers.map((provider) => provider.close()));
    },
  });

  describe(`shared store provider: ${label}`, () => {
    const children: FixtureProcess[] = [];

    afterEach(async () => {
      for (const child of children.splice(0)) {
        if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
        await child.exited;
      }
    });

    it(`says what it is: ${suite.kind}, durable, shared`, async () => {
      const provider = await suite.provider(suite.freshNamespace());
      try {
        expect(provider).toMatchObject({ kind: suite.kind, durable: true, shared: true });
      } finally {
        await provider.close();
      }
    });

    it('two processes incrementing one key by compare-and-set lose no update', async () => {
      const namespace = suite.freshNamespace();
      const setup = await suite.provider(namespace);
      try {
        await suite.replicas.prepare?.(setup);
        const environment = {
          ...suite.replicas.environment,
          STORE_NAMESPACE: namespace,
          INCREMENTS: '100',
        };
        const processes = [0, 1].map(() =>
          startFixture(suite.replicas.packageDirectory, 'increment-process.ts', environment),
        );
        children.push(...processes);
        await Promise.all(processes.map((child) => child.waitForLine('DONE', 60_000)));
        expect(await Promise.all(processes.map((child) => child.exited))).toEqual([0, 0]);
        // The two processes really raced: at least one compare-and-set lost and was retried.
        const retries = processes.map((child) => Number(/RETRIES (\d+)/.exec(child.lines.join('\n'))![1]));
        expect(retries[0] + retries[1]).toBeGreaterThan(0);
        expect(await setup.open<number>('counter').get('n')).toMatchObject({ value: 200, version: 200 });
      } finally {
        await setup.close();
      }
    }, 90_000);

    it('sees one store from two providers with their own connections: versions, TTL and STORE_FULL hold across them', async () => {
      const namespace = suite.freshNamespace();
      const clock = storeTestClock(Date.parse('2026-03-01T10:00:00Z'));
      const first = await suite.provider(namespace, { clock });
      const second = await suite.provider(namespace, { clock });
      try {
        const a = first.open<string>('leases', { maxEntries: 2 });
        const b = second.open<string>('leases', { maxEntries: 2 });
        expect((await a.put('lease', 'first', { expectedVersion: 0, ttlMs: 1000 })).written).toBe(true);
        expect(await b.put('lease', 'second', { expectedVersion: 0 })).toMatchObject({
          written: false,
          current: { value: 'first', version: 1 },
        });
        await b.put('other', 'b');
        await expect(a.put('third', 'a')).rejects.toMatchObject({ code: 'STORE_FULL' });
        clock.advance(1000);
        expect(await b.get('lease')).toBeUndefined();
        expect(await a.count()).toBe(1);
        expect((await b.put('lease', 'second', { expectedVersion: 0 })).written).toBe(true);
        expect((await a.get('lease'))?.value).toBe('second');
        await expect(b.put('third', 'b')).rejects.toMatchObject({ code: 'STORE_FULL' });
      } finally {
        await first.close();
        await second.close();
      }
    });

    it('reconnects after close (the engine closes on stop; a later start uses the stores again)', async () => {
      const provider = await suite.provider(suite.freshNamespace());
      const store = provider.open<number>('again');
      await store.put('a', 1);
      await provider.close();
      expect((await store.get('a'))?.value).toBe(1);
      await provider.close();
    });

    it('fails a read and a write on an unreachable server with STORE_UNAVAILABLE naming the server, never the password', async () => {
      const provider = suite.unreachable.provider();
      try {
        const store = provider.open<number>('things');
        for (const call of [() => store.get('a'), () => store.put('a', 1)]) {
          const error = await call().then(
            () => undefined,
            (caught: Error & { code?: string }) => caught,
          );
          expect(error?.code).toBe('STORE_UNAVAILABLE');
          expect(error?.message).toMatch(suite.unreachable.message);
          expect(JSON.stringify({ message: error?.message, stack: error?.stack })).not.toContain(
            suite.unreachable.secret,
          );
        }
      } finally {
        await provider.close();
      }
    });

    it('as the engine provider, serves stores opened before add*Stores and is closed when the engine stops', async () => {
      const namespace = suite.freshNamespace();
      const { builder } = createTestEngineBuilder({
        configuration: { Engine: { Stores: suite.registration.section(namespace) } },
      });
      const early = builder.openStore<{ n: number }>('early');
      const provider: ClosableStoreProvider = suite.registration.add(builder);
      const engine = builder.build();
      expect(builder.storeTraits()).toMatchObject({ kind: suite.kind, durable: true, shared: true });
      await engine.start();
      await early.put('a', { n: 1 });
      const direct = await suite.provider(namespace);
      try {
        // The provider holds what the engine wrote: the value in its schema envelope (version 1).
        expect((await direct.open('early').get('a'))?.value).toEqual({ $schemaVersion: 1, value: { n: 1 } });
      } finally {
        await direct.close();
      }
      const closed = jest.spyOn(provider, 'close');
      await engine.stop();
      expect(closed).toHaveBeenCalledTimes(1);
    });

    it('as the engine provider, measures and traces every database operation per the semantic conventions', async () => {
      const capture = captureTelemetry();
      const namespace = suite.freshNamespace();
      try {
        const { builder } = createTestEngineBuilder({
          configuration: { Engine: { Stores: suite.registration.section(namespace) } },
        });
        const store = builder.openStore<{ n: number }>('measured');
        const provider = suite.registration.add(builder);
        const engine = builder.build();
        await engine.start();
        try {
          await store.put('a', { n: 1 });
          await store.put('a', { n: 2 }, { expectedVersion: 1 });
          expect((await store.get('a'))?.value).toEqual({ n: 2 });
          expect(await store.list()).toHaveLength(1);
          expect(await store.count()).toBe(1);
          expect(await store.delete('a')).toBe(true);
        } finally {
          await engine.stop();
        }
        expect(provider.database).toMatchObject({ system: suite.telemetry.system });
        await expectDatabaseClientTelemetry(capture, {
          system: suite.telemetry.system,
          operations: suite.telemetry.operations,
          collection: suite.telemetry.collection?.(namespace),
        });
        const spans = capture.spans().filter((span) => span.kind === SpanKind.CLIENT);
        for (const span of spans) {
          expect(span.attributes).toMatchObject({
            'server.address': expect.any(String),
            'server.port': expect.any(Number),
          });
        }

        // A failed operation carries `error.type`, on the span and the measurement, and no credentials.
        const unreachable = suite.unreachable.provider();
        unreachable.useTelemetry?.(capture.telemetry);
        try {
          await expect(unreachable.open<number>('things').get('a')).rejects.toMatchObject({
            code: 'STORE_UNAVAILABLE',
          });
        } finally {
          await unreachable.close();
        }
        const failed = capture.spans().filter((span) => span.attributes['error.type'] !== undefined);
        expect(failed.length).toBeGreaterThan(0);
        expect(failed[0]!.status.code).toBe(2);
        const duration = await capture.instrument('db.client.operation.duration');
        expect(duration?.points.some((point) => point.attributes['error.type'] !== undefined)).toBe(true);
        expect(JSON.stringify(capture.spans().map((span) => span.attributes))).not.toContain(
          suite.unreachable.secret,
        );
      } finally {
        await capture.stop();
      }
    });
  });
}
