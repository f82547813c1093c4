import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { PostgresStoreProvider } from '@corekit/store-postgres';
import { RedisStoreProvider } from '@corekit/store-redis';
import { seed } from './seed';

// Replicas of a shared-state mirror on PostgreSQL and Redis: idle store reads, CPU and write-to-replica
// staleness with the change feed, against polling (the feed off) measured in the same run. See bench/README.md.

const list = (name: string, fallback: string): string[] => (process.env[name] ?? fallback).split(',');
const providers = list('BENCH_PROVIDERS', 'postgresql,redis');
const replicaCounts = list('BENCH_REPLICAS', '1,2,4,8').map(Number);
const entryCounts = list('BENCH_ENTRIES', '100,10000,100000').map(Number);
const modes = list('BENCH_MODES', 'feed,polling');
const idleMs = Number(process.env.BENCH_IDLE_SECONDS ?? 5) * 1000;
const writes = Number(process.env.BENCH_WRITES ?? 20);
const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, '../node_modules/.bin/tsx');

interface Replica {
  readonly child: ChildProcess;
  send(line: string): void;
  next(prefix: string): Promise<string>;
}

function startReplica(environment: Record<string, string>): Replica {
  const child = spawn(tsx, ['--tsconfig', 'tsconfig.run.json', 'src/replica.ts'], {
    cwd: path.resolve(here, '..'),
    env: { ...process.env, ...environment },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting: Array<{ prefix: string; resolve: (line: string) => void }> = [];
  const early: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const index = waiting.findIndex((entry) => line.startsWith(entry.prefix));
    if (index >= 0) waiting.splice(index, 1)[0]!.resolve(line);
    else early.push(line);
  });
  return {
    child,
    send: (line) => child.stdin!.write(`${line}\n`),
    next: (prefix) =>
      new Promise((resolve) => {
        const found = early.findIndex((line) => line.startsWith(prefix));
        if (found >= 0) resolve(early.splice(found, 1)[0]!);
        else waiting.push({ prefix, resolve });
      }),
  };
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const median = (values: number[]): number => percentile(values, 50);

interface Row {
  provider: string;
  replicas: number;
  entries: number;
  mode: string;
  queriesPerSecond: number;
  rowsPerSecond: number;
  cpuPercent: number;
  p50: number;
  p99: number;
}

async function measure(provider: string, replicas: number, entries: number, mode: string): Promise<Row> {
  const namespace =
    provider === 'redis'
      ? `corekit-bench:${randomBytes(4).toString('hex')}:`
      : `corekit_bench_${randomBytes(4).toString('hex')}`;
  const writer =
    provider === 'redis'
      ? new RedisStoreProvider({ url: redisUrl, keyPrefix: namespace })
      : new PostgresStoreProvider({ connectionString: postgresUrl, tableName: namespace });
  const store = writer.open<{ n: number }>('bench-states', { maxEntries: 1_000_000 });
  try {
    await seed(provider, namespace, entries, { postgresUrl, redisUrl, writer });
    const started = Array.from({ length: replicas }, () =>
      startReplica({
        BENCH_PROVIDER: provider,
        BENCH_NAMESPACE: namespace,
        BENCH_FEED: mode === 'feed' ? 'on' : 'off',
        POSTGRES_URL: postgresUrl,
        REDIS_URL: redisUrl,
      }),
    );
    try {
      await Promise.all(started.map((replica) => replica.next('READY')));
      started.forEach((replica) => replica.send(`IDLE ${idleMs}`));
      const idle = (await Promise.all(started.map((replica) => replica.next('IDLE')))).map((line) =>
        line.split(' ').slice(1).map(Number),
      );
      const delays: number[] = [];
      for (let index = 0; index < writes; index++) {
        const key = `written-${index}`;
        started.forEach((replica) => replica.send(`EXPECT ${key} 1`));
        const writtenAt = Date.now();
        await store.put(key, { n: index });
        const seen = await Promise.all(started.map((replica) => replica.next(`SEEN ${key} `)));
        for (const line of seen) delays.push(Math.max(0, Number(line.split(' ')[2]) - writtenAt));
      }
      started.forEach((replica) => replica.send('EXIT'));
      return {
        provider,
        replicas,
        entries,
        mode,
        queriesPerSecond: median(idle.map((values) => values[0]!)),
        rowsPerSecond: median(idle.map((values) => values[1]!)),
        cpuPercent: median(idle.map((values) => values[2]!)),
        p50: percentile(delays, 50),
        p99: percentile(delays, 99),
      };
    } finally {
      await Promise.all(
        started.map(
          (replica) =>
            new Promise<void>((resolve) => {
              if (replica.child.exitCode !== null) return resolve();
              const bound = setTimeout(() => replica.child.kill('SIGKILL'), 10_000);
              replica.child.once('exit', () => {
                clearTimeout(bound);
                resolve();
              });
            }),
        ),
      );
    }
  } finally {
    await drop(provider, namespace);
    await writer.close();
  }
}

async function drop(provider: string, namespace: string): Promise<void> {
  if (provider === 'redis') {
    const client = new Redis(redisUrl);
    const keys = await client.keys(`${namespace}*`);
    if (keys.length > 0) await client.del(...keys);
    client.disconnect();
    return;
  }
  const pool = new pg.Pool({ connectionString: postgresUrl });
  await pool.query(`DROP TABLE IF EXISTS "${namespace}"`);
  await pool.query(`DROP FUNCTION IF EXISTS "public"."${namespace}_notify"()`);
  await pool.end();
}

const format = (value: number, digits = 1): string => (Number.isFinite(value) ? value.toFixed(digits) : '-');

async function main(): Promise<void> {
  console.log(
    `replicas bench: providers ${providers.join('/')}, replicas ${replicaCounts.join('/')}, entries ${entryCounts.join('/')}, idle ${idleMs / 1000} s, ${writes} writes per configuration`,
  );
  console.log(
    '| provider | replicas | entries | mode | idle store queries/s per replica | idle rows read/s per replica | idle CPU % per replica | staleness p50 (ms) | staleness p99 (ms) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const rows: Row[] = [];
  for (const provider of providers) {
    for (const entries of entryCounts) {
      for (const replicas of replicaCounts) {
        for (const mode of modes) {
          const row = await measure(provider, replicas, entries, mode);
          rows.push(row);
          console.log(
            `| ${provider} | ${replicas} | ${entries} | ${mode} | ${format(row.queriesPerSecond, 2)} | ${format(row.rowsPerSecond, 0)} | ${format(row.cpuPercent)} | ${format(row.p50, 0)} | ${format(row.p99, 0)} |`,
          );
        }
      }
    }
  }
  report(rows);
}

/** The ratios the targets are about: feed against polling in this run, and flatness in the entry count. */
function report(rows: Row[]): void {
  console.log('\nfeed / polling, same provider, replicas and entries:');
  for (const feed of rows.filter((row) => row.mode === 'feed')) {
    const polling = rows.find(
      (row) =>
        row.mode === 'polling' &&
        row.provider === feed.provider &&
        row.replicas === feed.replicas &&
        row.entries === feed.entries,
    );
    if (!polling) continue;
    console.log(
      `  ${feed.provider} ${feed.replicas} replicas ${feed.entries} entries: idle queries ${format(feed.queriesPerSecond / polling.queriesPerSecond, 3)}x, idle CPU ${format(feed.cpuPercent / polling.cpuPercent, 2)}x, p99 ${format(feed.p99 / polling.p99, 2)}x`,
    );
  }
  const feedRows = rows.filter((row) => row.mode === 'feed');
  for (const provider of providers) {
    const own = feedRows.filter((row) => row.provider === provider);
    if (own.length === 0) continue;
    const worstP99 = Math.max(...own.map((row) => row.p99));
    const small = own.filter((row) => row.entries === Math.min(...entryCounts));
    const large = own.filter((row) => row.entries === Math.max(...entryCounts));
    const flat = Math.max(
      ...large.map((row) => {
        const base = small.find((other) => other.replicas === row.replicas);
        return base ? (row.queriesPerSecond + 1e-9) / (base.queriesPerSecond + 1e-9) : NaN;
      }),
    );
    console.log(
      `${provider} with the feed: worst p99 ${format(worstP99, 0)} ms (target < 250: ${worstP99 < 250 ? 'met' : 'missed'}); idle queries at ${Math.max(...entryCounts)} vs ${Math.min(...entryCounts)} entries ${format(flat, 2)}x (target within 2x: ${flat <= 2 ? 'met' : 'missed'})`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
