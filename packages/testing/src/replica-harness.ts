import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { startTsxProcess, type FixtureProcess } from './child-process';
import { pollUntil } from './poll-until';
import { requireService } from './require-service';

const run = promisify(execFile);

/** The shared store providers the harness can put the replicas on. */
export type ReplicaStoreProvider = 'postgresql' | 'redis';

/** What `startReplicas` starts. */
export interface ReplicaHarnessOptions {
  /** How many host processes to start (at least 1). */
  readonly count: number;
  readonly provider: ReplicaStoreProvider;
  /**
   * The host's entry point, run through tsx in `cwd` with `tsconfig` (for the sample host: `src/main.ts` and
   * `tsconfig.run.json` in `examples/web-host`). It must honour `PORT` and `Engine__Stores__*`, and print a
   * line containing `readyText` and its URL once it listens.
   */
  readonly entry: { readonly cwd: string; readonly script: string; readonly tsconfig: string };
  /** Text of the line the host prints once it listens; the first `http://...` in that line is its URL. */
  readonly readyText: string;
  /** Environment of every replica (a function gets the replica's index: per-replica folders). */
  readonly env?: Record<string, string> | ((index: number) => Record<string, string>);
  /**
   * The namespace of this set in the shared store: the PostgreSQL table (`TableName`) or the Redis key prefix
   * (`corekit:replicas:<isolation>:`). Default `replicas_<random>`: each set (each test file) has its own.
   */
  readonly isolation?: string;
  /** Longest wait for one replica to print its ready line. Default 120 s (tsx compiles the sources first). */
  readonly startTimeoutMs?: number;
}

/** One running replica. */
export interface Replica {
  readonly index: number;
  /** `http://127.0.0.1:<port>` of this process (a restart gives a new one). */
  readonly url: string;
  readonly process: FixtureProcess;
  /** `fetch` against this replica (`path` starts with `/`). */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** GET (or `init`) and the answer's status and JSON body (null when not JSON). */
  json<T = unknown>(path: string, init?: RequestInit): Promise<ReplicaAnswer<T>>;
}

export interface ReplicaAnswer<T = unknown> {
  readonly status: number;
  readonly body: T;
}

/** N host processes on one shared store. */
export interface ReplicaSet {
  readonly provider: ReplicaStoreProvider;
  /** The table or key-prefix namespace every replica uses. */
  readonly isolation: string;
  /** The environment variables that put a host on this set's store (what every replica gets). */
  readonly storeEnvironment: Readonly<Record<string, string>>;
  /** The replicas by index; a killed one stays in its slot until restarted. */
  readonly replicas: readonly Replica[];
  replica(index: number): Replica;
  /** SIGKILL: the process ends at once, without draining or releasing anything. Resolves once it exited. */
  kill(index: number): Promise<void>;
  /** Stops the replica (SIGTERM, SIGKILL if it is still running after the stop bound) and starts it again. */
  restart(index: number): Promise<Replica>;
  /** Starts one more replica on the same store; answers it. */
  add(): Promise<Replica>;
  /** Stops every replica, then removes the set's table or keys. */
  stopAll(): Promise<void>;
}

const postgresUrl = () => process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = () => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** How long a SIGTERM may take before the harness sends SIGKILL (a bound against a hung stop, not a wait). */
const stopBoundMs = 30_000;

/**
 * Starts `count` host processes (through tsx) on ONE shared store, PostgreSQL or Redis on the machine's real
 * servers (POSTGRES_URL, REDIS_URL; under CI=true a missing server fails), in a namespace of their own. The
 * replicas start one after the other (a start sees the store the previous one prepared). Compare their
 * answers with `answersOnReplicas` / `sameOnReplicas`.
 */
export async function startReplicas(options: ReplicaHarnessOptions): Promise<ReplicaSet> {
  const isolation = options.isolation ?? `replicas_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const storeEnvironment = storeEnvironmentOf(options.provider, isolation);
  const url = options.provider === 'postgresql' ? postgresUrl() : redisUrl();
  await requireService(
    options.provider,
    url,
    options.provider === 'postgresql' ? 'POSTGRES_URL' : 'REDIS_URL',
  );
  const slots: Replica[] = [];
  const launch = async (index: number): Promise<Replica> => {
    const own = typeof options.env === 'function' ? options.env(index) : (options.env ?? {});
    const child = startTsxProcess({
      cwd: options.entry.cwd,
      entry: options.entry.script,
      tsconfig: options.entry.tsconfig,
      environment: { PORT: '0', ...own, ...storeEnvironment },
    });
    let line: string;
    try {
      line = await child.waitForLine(options.readyText, options.startTimeoutMs ?? 120_000);
    } catch (error) {
      child.child.kill('SIGKILL');
      await child.exited;
      throw error;
    }
    const found = /https?:\/\/\S+/.exec(line);
    if (!found) throw new Error(`replica ${index}: no URL in its ready line ${JSON.stringify(line)}`);
    const base = found[0].replace('//localhost:', '//127.0.0.1:');
    const replica: Replica = {
      index,
      url: base,
      process: child,
      request: (path, init) => fetch(`${base}${path}`, init),
      async json<T>(path: string, init?: RequestInit) {
        const response = await fetch(`${base}${path}`, init);
        const text = await response.text();
        let body: unknown = null;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          body = null;
        }
        return { status: response.status, body: body as T };
      },
    };
    slots[index] = replica;
    return replica;
  };
  const stopOne = async (index: number, signal: NodeJS.Signals): Promise<void> => {
    const child = slots[index]?.process;
    if (!child || child.child.exitCode !== null || child.child.signalCode !== null) return;
    child.child.kill(signal);
    const bound = setTimeout(() => child.child.kill('SIGKILL'), stopBoundMs);
    await child.exited;
    clearTimeout(bound);
  };
  const set: ReplicaSet = {
    provider: options.provider,
    isolation,
    storeEnvironment,
    replicas: slots,
    replica(index) {
      const replica = slots[index];
      if (!replica) throw new Error(`no replica ${index} (${slots.length} started)`);
      return replica;
    },
    kill: (index) => stopOne(index, 'SIGKILL'),
    async restart(index) {
      await stopOne(index, 'SIGTERM');
      return launch(index);
    },
    add: () => launch(slots.length),
    async stopAll() {
      await Promise.all(slots.map((_, index) => stopOne(index, 'SIGTERM')));
      await dropStoreNamespace(namespaceOf(options.provider, isolation));
    },
  };
  try {
    for (let index = 0; index < options.count; index += 1) await launch(index);
  } catch (error) {
    await set.stopAll();
    throw error;
  }
  return set;
}

/** The `Engine__Stores__*` variables putting a host on the provider, in the namespace given. */
export function storeEnvironmentOf(
  provider: ReplicaStoreProvider,
  isolation: string,
): Record<string, string> {
  const namespace = namespaceOf(provider, isolation);
  return namespace.provider === 'postgresql'
    ? {
        Engine__Stores__Provider: 'PostgreSql',
        Engine__Stores__PostgreSql__ConnectionString: postgresUrl(),
        Engine__Stores__PostgreSql__TableName: namespace.tableName,
      }
    : {
        Engine__Stores__Provider: 'Redis',
        Engine__Stores__Redis__Url: redisUrl(),
        Engine__Stores__Redis__KeyPrefix: namespace.keyPrefix,
      };
}

/** Where a test's records live on a shared provider: a PostgreSQL table, or a Redis key prefix. */
export type StoreNamespace =
  | { readonly provider: 'postgresql'; readonly tableName: string }
  | { readonly provider: 'redis'; readonly keyPrefix: string };

/**
 * Best effort, after a test: drops the PostgreSQL table or deletes every Redis key under the prefix (psql /
 * redis-cli at `url`, by default POSTGRES_URL / REDIS_URL; nothing happens when the tool or the server is gone).
 */
export async function dropStoreNamespace(namespace: StoreNamespace, url?: string): Promise<void> {
  try {
    if (namespace.provider === 'postgresql') {
      await run('psql', [url ?? postgresUrl(), '-qc', `DROP TABLE IF EXISTS "${namespace.tableName}"`]);
      return;
    }
    const server = url ?? redisUrl();
    const { stdout } = await run('redis-cli', [
      '-u',
      server,
      '--scan',
      '--pattern',
      `${namespace.keyPrefix}*`,
    ]);
    const keys = stdout.split('\n').filter(Boolean);
    for (let start = 0; start < keys.length; start += 500) {
      await run('redis-cli', ['-u', server, 'DEL', ...keys.slice(start, start + 500)]);
    }
  } catch {
    /* the tool or the server is gone: nothing to clean */
  }
}

function namespaceOf(provider: ReplicaStoreProvider, isolation: string): StoreNamespace {
  return provider === 'postgresql'
    ? { provider, tableName: isolation }
    : { provider, keyPrefix: `corekit:replicas:${isolation}:` };
}

/** Options of `answersOnReplicas` and `sameOnReplicas`. */
export interface ReplicaComparison<T> {
  /** Which replicas to ask (indexes). Default every live one. */
  readonly on?: readonly number[];
  /** Reduces an answer to what is compared (strip per-process fields). Default the whole answer. */
  readonly select?: (answer: ReplicaAnswer) => T;
  /** The wait bound: the pack's documented staleness bound plus a margin for a loaded machine. Default 10 s. */
  readonly withinMs?: number;
  /** Request options (headers of an authorized call). */
  readonly init?: RequestInit;
}

function targets(set: ReplicaSet, on: readonly number[] | undefined): Replica[] {
  return (on ?? set.replicas.map((replica) => replica.index))
    .map((index) => set.replica(index))
    .filter(
      (replica) => replica.process.child.exitCode === null && replica.process.child.signalCode === null,
    );
}

/**
 * Polls `path` on the replicas until `done` holds for every (selected) answer, or `withinMs` passed; answers
 * the last answers read, in replica order (the caller asserts on them, so a timeout fails showing them).
 */
export function answersOnReplicas<T = ReplicaAnswer>(
  set: ReplicaSet,
  path: string,
  done: (answer: T, index: number) => boolean,
  options: ReplicaComparison<T> = {},
): Promise<T[]> {
  const select = options.select ?? ((answer: ReplicaAnswer) => answer as T);
  return pollUntil(
    () =>
      Promise.all(
        targets(set, options.on).map(async (replica) => select(await replica.json(path, options.init))),
      ),
    (answers) => answers.every((answer, index) => done(answer, index)),
    { timeoutMs: options.withinMs ?? 10_000, intervalMs: 100 },
  );
}

/**
 * Polls `path` on the replicas until every (selected) answer is the same JSON (and `done` holds for it when
 * given), within `withinMs`; answers the last answers read.
 */
export function sameOnReplicas<T = ReplicaAnswer>(
  set: ReplicaSet,
  path: string,
  options: ReplicaComparison<T> & { readonly done?: (answer: T) => boolean } = {},
): Promise<T[]> {
  const select = options.select ?? ((answer: ReplicaAnswer) => answer as T);
  return pollUntil(
    () =>
      Promise.all(
        targets(set, options.on).map(async (replica) => select(await replica.json(path, options.init))),
      ),
    (answers) =>
      answers.every((answer) => JSON.stringify(answer) === JSON.stringify(answers[0])) &&
      (options.done === undefined || answers.every((answer) => options.done!(answer))),
    { timeoutMs: options.withinMs ?? 10_000, intervalMs: 100 },
  );
}
