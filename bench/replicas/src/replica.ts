import { createInterface } from 'node:readline';
import { StoreMirror, type KeyedStore, type StoreProvider } from '@corekit/abstractions';
import { PostgresStoreProvider } from '@corekit/store-postgres';
import { RedisStoreProvider } from '@corekit/store-redis';

// One replica of the benchmark: a process holding a StoreMirror of one shared store, as the packs keep their
// shared states (eventing publication states, data capture states, agents runs...). Commands on stdin:
// `IDLE <ms>` answers the store calls, rows read and CPU of this process over that window; `EXPECT <key>
// <version>` answers `SEEN <key> <epoch ms>` once the copy holds that version; `EXIT`.

const provider: StoreProvider & { close(): Promise<void> } =
  process.env.BENCH_PROVIDER === 'redis'
    ? new RedisStoreProvider({
        url: process.env.REDIS_URL!,
        keyPrefix: process.env.BENCH_NAMESPACE!,
        changeFeed: process.env.BENCH_FEED === 'on',
      })
    : new PostgresStoreProvider({
        connectionString: process.env.POSTGRES_URL!,
        tableName: process.env.BENCH_NAMESPACE!,
        changeFeed: process.env.BENCH_FEED === 'on',
        poolMax: 2,
      });

const counts = { calls: 0, rows: 0 };
const inner = provider.open<{ n: number }>('bench-states', { maxEntries: 1_000_000 });
const counted: KeyedStore<{ n: number }> = {
  name: inner.name,
  get: async (key) => {
    counts.calls += 1;
    const record = await inner.get(key);
    counts.rows += record ? 1 : 0;
    return record;
  },
  list: async (options) => {
    counts.calls += 1;
    const records = await inner.list(options);
    counts.rows += records.length;
    return records;
  },
  put: (key, value, options) => inner.put(key, value, options),
  delete: (key, options) => inner.delete(key, options),
  count: () => inner.count(),
  watch: (listener) => inner.watch?.(listener),
};
const mirror = new StoreMirror(counted, { refreshMs: Number(process.env.BENCH_REFRESH_MS ?? 1000) });

const expectations = new Map<string, number>();
/** Checks every millisecond, only while a write is awaited (an idle replica runs no timer of the benchmark's). */
let check: ReturnType<typeof setInterval> | undefined;
function awaitWrite(key: string, version: number): void {
  expectations.set(key, version);
  check ??= setInterval(() => {
    for (const [awaited, awaitedVersion] of expectations) {
      if ((mirror.record(awaited)?.version ?? 0) >= awaitedVersion) {
        expectations.delete(awaited);
        process.stdout.write(`SEEN ${awaited} ${Date.now()}\n`);
      }
    }
    if (expectations.size === 0) {
      clearInterval(check);
      check = undefined;
    }
  }, 1);
}

async function main(): Promise<void> {
  await mirror.start(true);
  while (process.env.BENCH_FEED === 'on' && !mirror.feedConnected) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  // The first whole reads (the start and the feed's first catch-up) are not idle: let them finish.
  await mirror.load();
  process.stdout.write(`READY ${mirror.records().length}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, ...args] = line.split(' ');
    if (command === 'IDLE') {
      const before = { ...counts };
      const cpu = process.cpuUsage();
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, Number(args[0])));
      const used = process.cpuUsage(cpu);
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(
        `IDLE ${(counts.calls - before.calls) / seconds} ${(counts.rows - before.rows) / seconds} ${(used.user + used.system) / 1000 / seconds / 10}\n`,
      );
    } else if (command === 'EXPECT') {
      awaitWrite(args[0]!, Number(args[1]));
    } else if (command === 'EXIT') {
      break;
    }
  }
  if (check) clearInterval(check);
  mirror.stop();
  await provider.close();
  process.exit(0);
}

void main();
