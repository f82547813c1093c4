import { startFixture } from './child-process';
import { pollUntil } from './poll-until';

/** The checks of the CDC provider conformance suite, by name. */
export type CdcConformanceCheck =
  | 'restart-mid-stream'
  | 'concurrent-writers'
  | 'position-loss'
  | 'quiet-source-retention'
  | 'snapshot-hand-off';

/** The capture's runtime state as `/engine/cdc-captures/runtime/{id}` serves it (the fields the suite reads). */
export interface CdcConformanceState {
  readonly lastOutcome: string | null;
  readonly failureKind: string | null;
  readonly completeness: { readonly state: string; readonly reason: string | null };
  readonly gap: { readonly reasonCode: string } | null;
  readonly lastResolvedGap: { readonly resolution: { readonly action: string } | null } | null;
  readonly lag: { readonly retainedBytes: number | null };
}

/** A running host (an engine with the data pack and the provider) on one isolated source. */
export interface CdcConformanceHost {
  /** Runs one pump pass now (waits for a running one). */
  pass(): Promise<void>;
  state(): Promise<CdcConformanceState>;
  /** Invokes the guarded accept-gap operation in process. */
  acceptGap(): Promise<void>;
  /** Stops the host; `kill`: as abruptly as the adapter can (a SIGKILLed child, else a stop mid-pass). */
  stop(options?: { kill?: boolean }): Promise<void>;
}

/**
 * One isolated source (its own table or collection, outbox, slot and names) and the way to write to it.
 * Every change is an insert of a row or document with a unique integer id, so "staged exactly once" is a
 * question about ids.
 */
export interface CdcConformanceSource {
  /** Starts a host on this source (the same durable state each time: a restart resumes). */
  start(): Promise<CdcConformanceHost>;
  /** Inserts these ids, each committed in its own transaction unless the adapter batches them. */
  insert(ids: readonly number[]): Promise<void>;
  /**
   * Writers on their own connections: each commits inserts, rolls back about one transaction in five, and
   * one long transaction holds an early id open while the others commit; answers the ids committed.
   */
  writeConcurrently(options: { writers: number; idsPerWriter: number; firstId: number }): Promise<number[]>;
  /** The ids the outbox holds for the capture, one entry per staged message (duplicates show twice). */
  stagedIds(): Promise<number[]>;
  /** Makes the capture's position unresumable: drops the slot, rolls the oplog past the token. */
  losePosition?(): Promise<void>;
  /**
   * Starts a host in a child process that runs passes on its own interval, on the same durable state and
   * with the reporter id `start()` uses, and answers how to SIGKILL it. Without it, the kill check stops an
   * in-process host mid-stream instead.
   */
  startKillable?(): Promise<{ kill(): Promise<void> }>;
  /** Writes `bytes` of data the capture does not read (another table) on the same server. */
  writeElsewhere?(bytes: number): Promise<void>;
  drop(): Promise<void>;
}

/** How a provider runs the suite; a check it cannot run is declared with the reason, never skipped silently. */
export interface CdcProviderConformanceAdapter {
  readonly provider: string;
  createSource(test: string): Promise<CdcConformanceSource>;
  /** Checks that do not apply to this provider, each with why (printed as the test's name). */
  readonly notApplicable?: Partial<Record<CdcConformanceCheck, string>>;
  /** Bytes retained after `writeElsewhere` that count as bounded. Default 4 MiB. */
  readonly retentionBound?: number;
  /** Per-wait timeout in ms. Default 60,000. */
  readonly timeoutMs?: number;
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);

function duplicatesOf(ids: readonly number[]): number[] {
  const seen = new Set<number>();
  return ids.filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
}

/**
 * The CDC provider conformance suite (provider ↔ source seam): every committed change staged exactly once
 * across a stop mid-stream and concurrent writers with rollbacks and a long transaction; a lost position is a
 * gap (failure kind `gap`, `not-guaranteed`), never a silent restart, until the operator accepts it; a quiet
 * captured source does not make the server retain without bound; rows that exist before the capture starts
 * are staged once, with the changes committed around the hand-off. Run it from the provider's package with
 * its adapter.
 */
export function describeCdcProviderConformance(adapter: CdcProviderConformanceAdapter): void {
  const timeoutMs = adapter.timeoutMs ?? 60_000;
  const sources: CdcConformanceSource[] = [];
  const hosts: CdcConformanceHost[] = [];
  const source = async (test: string) => {
    const created = await adapter.createSource(test);
    sources.push(created);
    return created;
  };
  const start = async (from: CdcConformanceSource) => {
    const host = await from.start();
    hosts.push(host);
    return host;
  };
  const passUntilStaged = async (host: CdcConformanceHost, from: CdcConformanceSource, count: number) =>
    pollUntil(
      async () => {
        await host.pass();
        return from.stagedIds();
      },
      (ids) => new Set(ids).size >= count,
      { timeoutMs, intervalMs: 20 },
    );
  const check = (name: CdcConformanceCheck, title: string, body: () => Promise<void>) => {
    const reason = adapter.notApplicable?.[name];
    if (reason) {
      it(`${title}: not applicable to ${adapter.provider} (${reason})`, () => {
        expect(reason.length).toBeGreaterThan(10);
      });
      return;
    }
    it(title, body, timeoutMs * 3);
  };

  describe(`CDC provider conformance: ${adapter.provider}`, () => {
    afterEach(async () => {
      for (const host of hosts.splice(0)) await host.stop().catch(() => undefined);
    });
    afterAll(async () => {
      for (const created of sources.splice(0)) await created.drop().catch(() => undefined);
    });

    check(
      'restart-mid-stream',
      'every committed change is staged exactly once across a kill mid-stream',
      async () => {
        const from = await source('restart');
        if (from.startKillable) {
          // A child process pumping on its own, SIGKILLed while changes are still arriving.
          const child = await from.startKillable();
          try {
            // Thirty transactions of ten: the child stages them batch by batch while it is killed.
            for (let chunk = 0; chunk < 30; chunk++) await from.insert(range(1 + chunk * 10, 10));
            await pollUntil(
              () => from.stagedIds(),
              (ids) => ids.length > 0,
              { timeoutMs, intervalMs: 20 },
            );
          } finally {
            await child.kill();
          }
        } else {
          const first = await start(from);
          await first.pass();
          await from.insert(range(1, 300));
          await passUntilStaged(first, from, 1);
          await first.stop({ kill: true });
          hosts.splice(hosts.indexOf(first), 1);
        }
        await from.insert(range(301, 100));
        const second = await start(from);
        const staged = await passUntilStaged(second, from, 400);
        expect(duplicatesOf(staged)).toEqual([]);
        expect([...staged].sort((a, b) => a - b)).toEqual(range(1, 400));
      },
    );

    check(
      'concurrent-writers',
      'concurrent writers with rollbacks and a long transaction: every committed change once, no rolled-back one',
      async () => {
        const from = await source('writers');
        const host = await start(from);
        await host.pass();
        const writing = from.writeConcurrently({ writers: 4, idsPerWriter: 250, firstId: 1 });
        const committed = await writing;
        const staged = await passUntilStaged(host, from, committed.length);
        expect(duplicatesOf(staged)).toEqual([]);
        expect([...staged].sort((a, b) => a - b)).toEqual([...committed].sort((a, b) => a - b));
        expect((await host.state()).completeness.state).toBe('guaranteed');
      },
    );

    check(
      'position-loss',
      'a lost position is a gap until the operator accepts it, never a silent restart',
      async () => {
        const from = await source('gap');
        const host = await start(from);
        await host.pass();
        await from.insert(range(1, 5));
        await passUntilStaged(host, from, 5);
        await from.losePosition!();
        await from.insert(range(6, 5));
        const gapped = await pollUntil(
          async () => {
            await host.pass();
            return host.state();
          },
          (state) => state.failureKind === 'gap',
          { timeoutMs, intervalMs: 20 },
        );
        expect(gapped).toMatchObject({
          completeness: { state: 'not-guaranteed' },
          gap: { reasonCode: expect.any(String) },
        });
        await from.insert(range(11, 1));
        for (let index = 0; index < 3; index++) await host.pass();
        expect((await from.stagedIds()).sort((a, b) => a - b)).toEqual(range(1, 5));
        await host.acceptGap();
        await pollUntil(
          async () => {
            await host.pass();
            return host.state();
          },
          (state) => state.gap === null && state.lastOutcome !== 'failed',
          { timeoutMs, intervalMs: 20 },
        );
        await from.insert(range(100, 1));
        const staged = await passUntilStaged(host, from, 6);
        expect(staged).toContain(100);
        expect(duplicatesOf(staged)).toEqual([]);
        expect((await host.state()).lastResolvedGap?.resolution?.action).toBe('accept-gap');
      },
    );

    check(
      'quiet-source-retention',
      'a quiet captured source does not make the server retain what is written elsewhere',
      async () => {
        const from = await source('quiet');
        const host = await start(from);
        await host.pass();
        await from.insert([1]);
        await passUntilStaged(host, from, 1);
        await from.writeElsewhere!(32 * 1024 * 1024);
        const bound = adapter.retentionBound ?? 4 * 1024 * 1024;
        const state = await pollUntil(
          async () => {
            await host.pass();
            return host.state();
          },
          (current) => current.lag.retainedBytes !== null && current.lag.retainedBytes < bound,
          { timeoutMs, intervalMs: 50 },
        );
        expect(state.lag.retainedBytes).toBeLessThan(bound);
      },
    );

    check(
      'snapshot-hand-off',
      'rows present before the capture starts and changes committed around the hand-off are staged once each',
      async () => {
        const from = await source('snapshot');
        await from.insert(range(1, 1000));
        const writing = from.writeConcurrently({ writers: 3, idsPerWriter: 100, firstId: 10_000 });
        const host = await start(from);
        await host.pass();
        const committed = await writing;
        const expected = [...range(1, 1000), ...committed].sort((a, b) => a - b);
        const staged = await passUntilStaged(host, from, expected.length);
        expect(duplicatesOf(staged)).toEqual([]);
        expect([...staged].sort((a, b) => a - b)).toEqual(expected);
      },
    );
  });
}

/**
 * `startKillable` of a source whose host runs in `<packageDirectory>/src/test-fixtures/<fixture>` (see
 * startFixture): answers once the child printed `PASS 1` (within 60 s); `kill()` SIGKILLs it and waits for
 * its exit.
 */
export async function startKillableFixture(
  packageDirectory: string,
  fixture: string,
  environment: Record<string, string>,
): Promise<{ kill(): Promise<void> }> {
  const child = startFixture(packageDirectory, fixture, environment);
  await child.waitForLine('PASS 1', 60_000);
  return {
    async kill() {
      child.child.kill('SIGKILL');
      await child.exited;
    },
  };
}
