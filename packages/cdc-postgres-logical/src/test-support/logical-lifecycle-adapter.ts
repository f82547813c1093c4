import type { Engine } from '@corekit/abstractions';
import { addData, cdcPollingProvidersKey, type CdcPollingProvider } from '@corekit/data';
import type {
  PackLifecycleAdapter,
  PackLifecycleEnvironment,
} from '@corekit/testing/pack-lifecycle-conformance';
import { pollUntil } from '@corekit/testing/poll-until';
import pg from 'pg';
import { PostgresLogicalDecodingProvider } from '../logical-decoding-provider';

/** Names of one test, from its folder: source table, outbox table, slot and publication. */
function namesOf(environment: PackLifecycleEnvironment) {
  const suffix = environment.directory
    .replace(/[^a-z0-9]/gi, '')
    .slice(-16)
    .toLowerCase();
  return {
    source: `lifecycle_src_${suffix}`,
    outbox: `lifecycle_outbox_${suffix}`,
    slot: `lifecycle_slot_${suffix}`,
    publication: `lifecycle_pub_${suffix}`,
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** An LSN (`16/B374D848`) as a number, for comparisons. */
const lsnValue = (lsn: string) => {
  const [high, low] = lsn.split('/');
  return BigInt(`0x${high}`) * 2n ** 32n + BigInt(`0x${low}`);
};

/**
 * The real logical-decoding provider, wrapped so the suite sees the staging as the executor: once a batch is
 * staged, each staged insert (its `body` is the work id) goes through `environment.perform`, which the suite
 * can hold in flight. An interrupted batch is not acknowledged, so the slot sends it again after the next
 * start (staging it again produces nothing).
 */
function heldProvider(url: string, environment: PackLifecycleEnvironment): CdcPollingProvider {
  const { outbox } = namesOf(environment);
  const real = new PostgresLogicalDecodingProvider({
    connectionString: url,
    outboxTable: outbox,
    maxBufferedChanges: 1000,
    timeoutMilliseconds: 10_000,
  });
  return {
    provider: real.provider,
    acknowledgerServiceType: real.acknowledgerServiceType,
    async stageBatch(request) {
      const batch = await real.stageBatch(request);
      if (batch.nextCheckpoint === null) return batch;
      // The batch's transactions: committed after the previous checkpoint, up to the new one.
      const ids = await withClient(url, async (client) => {
        const rows = await client.query<{ body: string }>(
          `SELECT payload->'new'->>'body' AS body FROM ${outbox}
            WHERE cdc_capture_id = $1 AND payload->>'operation' = 'insert'
              AND (payload->>'commitLsn')::pg_lsn < $2::pg_lsn
              AND ($3::text IS NULL OR (payload->>'commitLsn')::pg_lsn >= $3::pg_lsn)
            ORDER BY id`,
          [request.capture.id, batch.nextCheckpoint, request.checkpoint],
        );
        return rows.rows.map((row) => row.body);
      });
      for (const id of ids) await environment.perform(id, request.signal);
      return batch;
    },
    acknowledge: (request) => real.acknowledge(request),
    close: () => real.close(),
  };
}

/**
 * The data pack's shared capture pump with the PostgreSQL logical-decoding provider for the pack lifecycle
 * conformance suite: work inserts a source row (body = the work id); it happened when the outbox holds its
 * change. The capture's durable checkpoint on `/engine/cdc-captures/runtime` is compared with what the server
 * says: the slot's confirmed LSN once the outbox holds a change the slot confirmed, else none.
 */
export function logicalLifecycleAdapter(url: () => string, packageDirectory?: string): PackLifecycleAdapter {
  return {
    pack: 'data (capture pump, PostgreSQL logical decoding)',
    staged: true,
    processFixture: packageDirectory ? { packageDirectory, fixture: 'logical-lifecycle.ts' } : undefined,
    register(builder, environment) {
      const { source, slot, publication } = namesOf(environment);
      builder.addModule({ id: 'lifecycle', version: '1.0.0' });
      builder.addCatalogEntries('cdc-captures', 'lifecycle', [
        {
          id: 'lifecycle',
          displayName: 'Lifecycle',
          sourceModuleId: 'lifecycle',
          provider: 'postgresql-logical',
          sourceId: 'test-db',
          mode: 'logical',
          eventFormat: 'json',
          metadata: { sourceTable: source, slot, publication },
        },
      ]);
      builder.provide(cdcPollingProvidersKey, [heldProvider(url(), environment)]);
      addData(builder, {
        CapturePump: { CdcCaptureIds: ['lifecycle'], BatchSize: 10, PollIntervalMilliseconds: 20 },
        ChangeStreamPump: { Enabled: false },
      });
    },
    async work(_engine, id, environment) {
      const { source, slot } = namesOf(environment);
      await withClient(url(), async (client) => {
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${source} (id serial PRIMARY KEY, body text NOT NULL)`,
        );
        // A change committed before the slot exists is never decoded: wait for the pump to create it.
        await pollUntil(
          async () =>
            (await client.query('SELECT 1 FROM pg_replication_slots WHERE slot_name = $1', [slot])).rowCount,
          (count) => count === 1,
          { timeoutMs: 20_000, intervalMs: 20 },
        );
        await client.query(`INSERT INTO ${source} (body) VALUES ($1)`, [id]);
      });
    },
    async happened(_engine, id, environment) {
      const { outbox } = namesOf(environment);
      return withClient(url(), async (client) => {
        const exists = await client.query('SELECT to_regclass($1) AS name', [outbox]);
        if (exists.rows[0].name === null) return false;
        const found = await client.query(`SELECT 1 FROM ${outbox} WHERE payload->'new'->>'body' = $1`, [id]);
        return (found.rowCount ?? 0) > 0;
      });
    },
    async claims(engine: Engine) {
      const state = engine.catalog('cdc-capture-states')?.find('lifecycle') as
        { acknowledgement?: { durableCheckpoint: string | null } } | undefined;
      return { durableCheckpoint: state?.acknowledgement?.durableCheckpoint ?? null };
    },
    async facts(_engine, environment) {
      const { outbox, slot } = namesOf(environment);
      const confirmed = await withClient(url(), async (client) => {
        const exists = await client.query('SELECT to_regclass($1) AS name', [outbox]);
        if (exists.rows[0].name === null) return null;
        const newest = await client.query<{ lsn: string | null }>(
          `SELECT max((payload->>'commitLsn')::pg_lsn)::text AS lsn FROM ${outbox}`,
        );
        const position = await client.query<{ lsn: string | null }>(
          'SELECT confirmed_flush_lsn::text AS lsn FROM pg_replication_slots WHERE slot_name = $1',
          [slot],
        );
        const staged = newest.rows[0]?.lsn ?? null;
        const slotLsn = position.rows[0]?.lsn ?? null;
        if (staged === null || slotLsn === null) return null;
        // The slot confirmed the newest staged change: its position is the checkpoint; else nothing is.
        return lsnValue(slotLsn) > lsnValue(staged) ? slotLsn : 'unconfirmed';
      });
      return { durableCheckpoint: confirmed };
    },
  };
}
