import type { PackTelemetry, PackTracer } from './pack-tracer';
import { errorTypeOf } from './pack-tracer';
import type { PackHistogram } from './runtime-writers';

/**
 * Bucket boundaries (seconds) the database semantic conventions advise for `db.client.operation.duration`.
 */
export const databaseDurationBuckets: readonly number[] = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10];

/** Which database a client talks to, as the semantic conventions name it. */
export interface DatabaseClientTarget {
  /** `db.system.name`: `postgresql`, `redis`... */
  readonly system: string;
  /** `db.namespace`: the database name (PostgreSQL) or index (Redis), when known. */
  readonly namespace?: string;
  /** `server.address` and `server.port`, when known. Never credentials. */
  readonly serverAddress?: string;
  readonly serverPort?: number;
}

/** One database operation: `db.operation.name` (`SELECT`, `EVALSHA`) and the table or key space, when known. */
export interface DatabaseOperation {
  readonly name: string;
  /** `db.collection.name`: the table (`public.corekit_stores`); omitted where the database has none. */
  readonly collection?: string;
  /**
   * `db.namespace` of this operation when a client works in several (a MongoDB client's database per capture);
   * left out, the target's.
   */
  readonly namespace?: string;
}

/**
 * The database-client semantic conventions for one client: each operation is a CLIENT span named
 * `{db.operation.name} {db.collection.name}` and one `db.client.operation.duration` measurement (seconds),
 * both with `db.system.name`, `db.operation.name`, `db.collection.name`, `db.namespace`, `server.address`,
 * `server.port`, and `error.type` when it failed. Until `use` is called (the engine calls the provider's
 * `useTelemetry`), operations run bare: nothing is measured.
 */
export class DatabaseClientTelemetry {
  private instruments: { tracer: PackTracer; duration: PackHistogram } | undefined;
  private readonly base: Readonly<Record<string, string | number>>;

  constructor(target: DatabaseClientTarget) {
    this.base = {
      'db.system.name': target.system,
      ...(target.namespace ? { 'db.namespace': target.namespace } : {}),
      ...(target.serverAddress ? { 'server.address': target.serverAddress } : {}),
      ...(target.serverPort ? { 'server.port': target.serverPort } : {}),
    };
  }

  /** Measures with the engine's meter and tracer from now on. */
  use(telemetry: PackTelemetry): void {
    this.instruments = {
      tracer: telemetry.tracer,
      duration: telemetry.meter.histogram(
        'db.client.operation.duration',
        'Duration of database client operations',
        {
          unit: 's',
          buckets: databaseDurationBuckets,
        },
      ),
    };
  }

  /** Runs `run` as one database operation: a CLIENT span around it and one duration measurement. */
  async operation<T>(operation: DatabaseOperation, run: () => Promise<T>): Promise<T> {
    const instruments = this.instruments;
    if (!instruments) return run();
    const attributes: Record<string, string | number> = {
      ...this.base,
      'db.operation.name': operation.name,
      ...(operation.collection ? { 'db.collection.name': operation.collection } : {}),
      ...(operation.namespace ? { 'db.namespace': operation.namespace } : {}),
    };
    const name = operation.collection ? `${operation.name} ${operation.collection}` : operation.name;
    const startedAt = performance.now();
    const span = instruments.tracer.start(name, { kind: 'client', attributes });
    try {
      const result = await run();
      instruments.duration.record((performance.now() - startedAt) / 1000, attributes);
      return result;
    } catch (error) {
      const errorType = errorTypeOf(error);
      span.fail(error);
      instruments.duration.record((performance.now() - startedAt) / 1000, {
        ...attributes,
        'error.type': errorType,
      });
      throw error;
    } finally {
      span.end();
    }
  }
}

/** The first keyword of an SQL statement, upper case (`SELECT`, `WITH`, `BEGIN`): its `db.operation.name`. */
export function sqlOperationOf(statement: string): string {
  const match = /^\s*([A-Za-z]+)/.exec(statement);
  return match ? match[1].toUpperCase() : 'UNKNOWN';
}

/**
 * The target a connection URL names (`postgres://user:secret@db:5432/orders`, `redis://cache:6379/2`):
 * `system`, the path as `db.namespace` (else `defaultNamespace`), host and port (else `defaultPort`).
 * Credentials are never read. A URL that does not parse gives the system alone.
 */
export function databaseTargetOfUrl(
  system: string,
  url: string,
  defaults: { readonly port: number; readonly namespace?: string },
): DatabaseClientTarget {
  try {
    const parsed = new URL(url);
    const namespace = decodeURIComponent(parsed.pathname.slice(1)) || defaults.namespace;
    return {
      system,
      ...(namespace ? { namespace } : {}),
      ...(parsed.hostname ? { serverAddress: parsed.hostname } : {}),
      serverPort: Number(parsed.port || defaults.port),
    };
  } catch {
    return { system };
  }
}
