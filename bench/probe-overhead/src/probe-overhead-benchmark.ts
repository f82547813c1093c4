// One probe run against the bare driver doing the same connect, query and close, for PostgreSQL and Redis,
// interleaved in one process. Prints per-run medians and p95, and the ratio probe / bare. Exits 1 when a
// ratio misses the target (1.2x). Environment: POSTGRES_URL, REDIS_URL, BENCH_ROUNDS (10),
// BENCH_RUNS_PER_ROUND (40), BENCH_TARGET (1.2).
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { DependencyHealthContributor, EngineBuilder } from '@corekit/abstractions';
import { createEngineBuilder } from '@corekit/engine-core';
import { addPostgresHealth } from '@corekit/probe-postgres';
import { addRedisHealth } from '@corekit/probe-redis';

const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
const runsPerRound = Number(process.env.BENCH_RUNS_PER_ROUND ?? 40);
const target = Number(process.env.BENCH_TARGET ?? 1.2);
const postgresUrl = new URL(process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

type Run = () => Promise<void>;

interface Contender {
  readonly name: string;
  readonly run: Run;
  /** Informational rows are printed but not held to the target. */
  readonly informational?: boolean;
}

interface Scenario {
  readonly name: string;
  readonly bare: Contender;
  readonly probes: readonly Contender[];
}

/** A builder whose dependency contributors are also handed back, to call their check directly. */
function probeEngine(register: (builder: EngineBuilder) => void) {
  const builder = createEngineBuilder({ environment: {}, logger: { log: () => undefined } });
  const contributors: DependencyHealthContributor[] = [];
  const original = builder.addDependencyHealthContributor.bind(builder);
  builder.addDependencyHealthContributor = (contributor: DependencyHealthContributor) => {
    contributors.push(contributor);
    return original(contributor);
  };
  register(builder);
  const engine = builder.build();
  const contributor = contributors[0];
  return {
    /** The probe run plus what the engine adds on every refresh: timeout race, validation, publication. */
    refresh: async () => {
      await engine.refreshDependencies();
      const [entry] = engine.dependencies();
      if (entry.status !== 'Healthy')
        throw new Error(`probe run was ${entry.status}: ${entry.error?.message}`);
    },
    /** One probe run: the contributor's check, as the scheduler calls it (abort signal, result, redaction). */
    check: async () => {
      const result = await contributor.check(new AbortController().signal);
      if (result.status !== 'Healthy')
        throw new Error(`probe check was ${result.status}: ${result.error?.message}`);
    },
  };
}

function postgresScenario(): Scenario {
  const host = postgresUrl.hostname;
  const port = Number(postgresUrl.port || 5432);
  const user = decodeURIComponent(postgresUrl.username || 'postgres');
  const password = postgresUrl.password ? decodeURIComponent(postgresUrl.password) : undefined;
  const database = postgresUrl.pathname.slice(1) || 'test';
  const entry = {
    Host: host,
    Port: port,
    Username: user,
    Database: database,
    HealthQuery: 'SELECT 1',
    ...(password ? { Password: password } : {}),
  };
  const disabled = probeEngine((builder) =>
    addPostgresHealth(builder, { Dependencies: [{ Id: 'postgres', ...entry, SslMode: 'Disable' }] }),
  );
  const preferred = probeEngine((builder) =>
    addPostgresHealth(builder, { Dependencies: [{ Id: 'postgres', ...entry, SslMode: 'Prefer' }] }),
  );
  return {
    name: `PostgreSQL ${host}:${port}/${database}`,
    bare: {
      name: 'bare pg.Client: connect, SELECT 1, end',
      run: async () => {
        const client = new pg.Client({
          host,
          port,
          user,
          database,
          ssl: false,
          ...(password ? { password } : {}),
        });
        await client.connect();
        await client.query('SELECT 1');
        await client.end();
      },
    },
    probes: [
      { name: 'probe run (contributor check), SslMode Disable', run: disabled.check },
      {
        name: 'probe run through engine.refreshDependencies(), SslMode Disable',
        run: disabled.refresh,
        informational: true,
      },
      {
        name: 'probe run, SslMode Prefer (the default; a server without TLS costs a 2nd connection)',
        run: preferred.check,
        informational: true,
      },
    ],
  };
}

function redisScenario(): Scenario {
  const host = redisUrl.hostname;
  const port = Number(redisUrl.port || 6379);
  const engine = probeEngine((builder) =>
    addRedisHealth(builder, { Dependencies: [{ Id: 'redis', Host: host, Port: port }] }),
  );
  return {
    name: `Redis ${host}:${port}`,
    bare: {
      name: 'bare ioredis (same options): connect, PING, disconnect',
      run: async () => {
        const client = new Redis({
          host,
          port,
          lazyConnect: true,
          enableOfflineQueue: false,
          enableReadyCheck: false,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
          disableClientInfo: true,
        });
        client.on('error', () => undefined);
        await client.connect();
        if ((await client.ping()) !== 'PONG') throw new Error('PING did not answer PONG');
        client.disconnect();
      },
    },
    probes: [
      { name: 'probe run (contributor check)', run: engine.check },
      { name: 'probe run through engine.refreshDependencies()', run: engine.refresh, informational: true },
    ],
  };
}

async function timeRuns(run: Run, count: number, into: number[]): Promise<void> {
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await run();
    into.push(performance.now() - started);
  }
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

async function measure(scenario: Scenario): Promise<boolean> {
  const contenders = [scenario.bare, ...scenario.probes];
  const samples = new Map<Contender, number[]>(contenders.map((contender) => [contender, []]));
  for (const contender of contenders) await timeRuns(contender.run, Math.max(10, runsPerRound / 2), []);
  for (let round = 0; round < rounds; round++) {
    // Rotate the order every round so neither side always runs on a warmer or a busier machine.
    const order = contenders.map((_, index) => contenders[(index + round) % contenders.length]);
    for (const contender of order) await timeRuns(contender.run, runsPerRound, samples.get(contender)!);
  }
  const bareMedian = percentile(samples.get(scenario.bare)!, 0.5);
  console.log(`\n${scenario.name}: ${rounds} rounds x ${runsPerRound} runs each, interleaved`);
  console.log('| contender | median (ms) | p95 (ms) | ratio to bare (medians) |');
  console.log('|---|---|---|---|');
  let met = true;
  for (const contender of contenders) {
    const values = samples.get(contender)!;
    const median = percentile(values, 0.5);
    const ratio = median / bareMedian;
    const verdict =
      contender === scenario.bare
        ? 'baseline'
        : `${ratio.toFixed(2)}x${contender.informational ? ' (informational)' : ratio <= target ? '' : ' MISSES TARGET'}`;
    if (contender !== scenario.bare && !contender.informational && ratio > target) met = false;
    console.log(
      `| ${contender.name} | ${median.toFixed(3)} | ${percentile(values, 0.95).toFixed(3)} | ${verdict} |`,
    );
  }
  return met;
}

/** The engine's own cost per refresh, measured with a contributor that answers at once. */
async function engineOverhead(): Promise<void> {
  const builder = createEngineBuilder({ environment: {}, logger: { log: () => undefined } });
  builder.addDependencyHealthContributor({
    id: 'no-op',
    displayName: 'no-op',
    required: true,
    kind: 'Redis',
    check: async () => ({ status: 'Healthy' }),
  });
  const engine = builder.build();
  const values: number[] = [];
  await timeRuns(() => engine.refreshDependencies(), 500, []);
  await timeRuns(() => engine.refreshDependencies(), rounds * runsPerRound * 5, values);
  console.log(
    `\nengine.refreshDependencies() with one contributor that answers at once: median ${(percentile(values, 0.5) * 1000).toFixed(1)} µs, p95 ${(percentile(values, 0.95) * 1000).toFixed(1)} µs`,
  );
}

async function main(): Promise<void> {
  console.log(
    `Node.js ${process.version}; target: a probe run within ${target}x of the bare driver (median per run)`,
  );
  const results = [await measure(postgresScenario()), await measure(redisScenario())];
  await engineOverhead();
  const missed = results.filter((met) => !met).length;
  console.log(
    `\n${missed === 0 ? `Target met in all ${results.length} scenarios.` : `Target MISSED in ${missed} of ${results.length} scenarios.`}`,
  );
  process.exitCode = missed === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
