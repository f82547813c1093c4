import type { Engine } from '@corekit/abstractions';
import type {
  PackLifecycleAdapter,
  PackLifecycleEnvironment,
} from '@corekit/testing/pack-lifecycle-conformance';
import pg from 'pg';
import { addData, cdcPollingProvidersKey, PostgresPollingProvider, type CdcPollingProvider } from '../index';

/** Tables of one test, named after its folder: `<prefix>_src_<suffix>` and `<prefix>_outbox_<suffix>`. */
function tablesOf(environment: PackLifecycleEnvironment) {
  const suffix = environment.directory
    .replace(/[^a-z0-9]/gi, '')
    .slice(-16)
    .toLowerCase();
  const tables = { source: `lifecycle_src_${suffix}`, outbox: `lifecycle_outbox_${suffix}` };
  named.add(tables.source).add(tables.outbox);
  return tables;
}

/** Every table name handed out in this process, for `dropLifecycleTables`. */
const named = new Set<string>();

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The PostgreSQL polling provider, wrapped so the suite sees the staging as the executor: before a batch is
 * staged, each source row after the checkpoint (its `body` is the work id) goes through
 * `environment.perform`, which the suite can hold in flight. The real provider is opened per start (the pump
 * closes it at every stop).
 */
function heldProvider(url: string, environment: PackLifecycleEnvironment): CdcPollingProvider {
  const { source, outbox } = tablesOf(environment);
  let real: PostgresPollingProvider | null = null;
  const open = () =>
    (real ??= new PostgresPollingProvider({
      connectionString: url,
      outboxTable: outbox,
      timeoutMilliseconds: 10_000,
    }));
  return {
    provider: 'postgresql',
    acknowledgerServiceType: 'postgresql-outbox-acknowledgement',
    async stageBatch(request) {
      const pending = await withClient(url, async (client) => {
        const exists = await client.query('SELECT to_regclass($1) AS name', [source]);
        if (exists.rows[0].name === null) return [];
        const rows = await client.query(
          `SELECT body FROM ${source} WHERE change_id > $1 ORDER BY change_id LIMIT $2`,
          [request.checkpoint ?? '0', request.batchSize],
        );
        return (rows.rows as Array<{ body: string }>).map((row) => row.body);
      });
      for (const id of pending) await environment.perform(id, request.signal);
      // Exactly the rows performed: a row inserted meanwhile waits for the next batch.
      if (pending.length === 0) {
        return {
          capturedChangeCount: 0,
          producedMessageCount: 0,
          lastChangeId: null,
          nextCheckpoint: null,
          lagSeconds: null,
        };
      }
      return open().stageBatch({ ...request, batchSize: pending.length });
    },
    acknowledge: (request) => open().acknowledge(request),
    async close() {
      const closing = real;
      real = null;
      await closing?.close();
    },
  };
}

/**
 * The data pack's shared polling pump over one PostgreSQL source table for the pack lifecycle conformance
 * suite: work inserts a source row (body = the work id); it happened when the outbox holds its change. The
 * capture's durable checkpoint on `/engine/cdc-captures/runtime` is compared with the newest change in the
 * outbox.
 */
export function dataLifecycleAdapter(url: string, packageDirectory?: string): PackLifecycleAdapter {
  return {
    pack: 'data (shared polling pump, PostgreSQL provider)',
    staged: true,
    processFixture: packageDirectory ? { packageDirectory, fixture: 'data-lifecycle.ts' } : undefined,
    register(builder, environment) {
      const { source, outbox } = tablesOf(environment);
      builder.addModule({ id: 'lifecycle', version: '1.0.0' });
      builder.addCatalogEntries('cdc-captures', 'lifecycle', [
        {
          id: 'lifecycle',
          displayName: 'Lifecycle',
          sourceModuleId: 'lifecycle',
          provider: 'postgresql',
          sourceId: 'test-db',
          mode: 'polling',
          eventFormat: 'json',
          metadata: { sourceTable: source, changeColumn: 'change_id' },
        },
      ]);
      builder.provide(cdcPollingProvidersKey, [heldProvider(url, environment)]);
      addData(builder, {
        CapturePump: { PostgreSqlOutboxTable: outbox, BatchSize: 10, PollIntervalMilliseconds: 20 },
      });
    },
    async work(_engine, id, environment) {
      const { source } = tablesOf(environment);
      await withClient(url, async (client) => {
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${source} (change_id bigserial PRIMARY KEY, body text NOT NULL)`,
        );
        await client.query(`INSERT INTO ${source} (body) VALUES ($1)`, [id]);
      });
    },
    async happened(_engine, id, environment) {
      const { source, outbox } = tablesOf(environment);
      return withClient(url, async (client) => {
        const exists = await client.query('SELECT to_regclass($1) AS name', [outbox]);
        if (exists.rows[0].name === null) return false;
        const found = await client.query(
          `SELECT 1 FROM ${outbox} o JOIN ${source} s ON o.change_id = s.change_id::text WHERE s.body = $1`,
          [id],
        );
        return (found.rowCount ?? 0) > 0;
      });
    },
    async claims(engine: Engine) {
      const state = engine.catalog('cdc-capture-states')?.find('lifecycle') as
        { acknowledgement?: { durableCheckpoint: string | null } } | undefined;
      return { durableCheckpoint: state?.acknowledgement?.durableCheckpoint ?? null };
    },
    async facts(_engine, environment) {
      const { outbox } = tablesOf(environment);
      const newest = await withClient(url, async (client) => {
        const exists = await client.query('SELECT to_regclass($1) AS name', [outbox]);
        if (exists.rows[0].name === null) return null;
        const result = await client.query(`SELECT max(change_id::bigint)::text AS newest FROM ${outbox}`);
        return (result.rows[0] as { newest: string | null }).newest;
      });
      return { durableCheckpoint: newest };
    },
  };
}

/** Drops the tables the adapter named in this process (source, outbox and acknowledgements of each test). */
export async function dropLifecycleTables(url: string): Promise<void> {
  const names = [...named].flatMap((name) => [name, `${name}_acknowledgements`]);
  named.clear();
  if (names.length === 0) return;
  await withClient(url, (client) => client.query(`DROP TABLE IF EXISTS ${names.join(', ')}`));
}
