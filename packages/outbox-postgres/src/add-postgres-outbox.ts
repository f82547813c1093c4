import { CoreError, databaseTargetOfUrl, type EngineBuilder } from '@corekit/abstractions';
import { eventingRegistrationKey, useOutboxStore } from '@corekit/eventing';
import pg from 'pg';
import { postgresOutboxOptionsSchema, type PostgresOutboxOptionsInput } from './postgres-outbox-options';
import { PostgresOutboxStore, type Queryable } from './postgres-outbox-store';

/**
 * Puts the eventing outbox lane on PostgreSQL (section `Engine:Eventing:Outbox:PostgreSql`). Call it after
 * `addEventing` with `Outbox:Enabled` true. Returns the store: applications stage with
 * `stageInTransaction(client, message)` inside their own transaction. The table is created at start unless
 * `CreateTable` is false (before the first statement that needs it); the pools close when the engine stops and open again at the next start.
 */
export function addPostgresOutbox(
  builder: EngineBuilder,
  options?: PostgresOutboxOptionsInput,
): PostgresOutboxStore {
  const eventing = builder.resolve(eventingRegistrationKey);
  if (!eventing || !eventing.options.Outbox.Enabled) {
    throw new CoreError(
      'POSTGRES_OUTBOX_WITHOUT_LANE',
      'addPostgresOutbox needs addEventing(builder, { Outbox: { Enabled: true } }) first (Engine:Eventing:Outbox:Enabled).',
    );
  }
  builder.claimRegistration({ packageName: '@corekit/outbox-postgres', entry: 'addPostgresOutbox' });
  builder.declarePack({ packageName: '@corekit/outbox-postgres', specificationVersion: 1 });
  const settings = builder.configuration.bind(
    'Engine:Eventing:Outbox:PostgreSql',
    postgresOutboxOptionsSchema,
    options,
  );
  const pool = new RestartablePool(() => {
    const created = new pg.Pool({ connectionString: settings.ConnectionString, max: settings.PoolMax });
    created.on('error', () => undefined);
    return created;
  });
  // The dispatcher's bookkeeping on sessions that commit asynchronously (one pass runs at a time: claims
  // and settlements overlap, so two sessions).
  const dispatchPool = settings.SynchronousDispatchCommits
    ? null
    : new RestartablePool(() => {
        const created = new pg.Pool({
          connectionString: settings.ConnectionString,
          max: 2,
          options: '-c synchronous_commit=off',
        });
        created.on('error', () => undefined);
        return created;
      });
  const store = new PostgresOutboxStore(pool, eventing.options.Outbox.OutboxId, {
    schema: settings.Schema,
    tableName: settings.TableName,
    createTable: settings.CreateTable,
    deleteDispatched: settings.DispatchedRetentionMinutes === 0,
    database: databaseTargetOfUrl('postgresql', settings.ConnectionString, { port: 5432 }),
    ...(dispatchPool ? { dispatchPool } : {}),
  });
  useOutboxStore(builder, store);
  if (settings.DispatchedRetentionMinutes > 0) {
    builder.addJob({
      id: 'eventing.outbox-postgres.purge',
      displayName: 'Delete dispatched PostgreSQL outbox rows past their retention',
      intervalMs: Math.min(settings.DispatchedRetentionMinutes * 60_000, 3_600_000),
      owner: '@corekit/outbox-postgres',
      run: () => store.purgeDispatched(settings.DispatchedRetentionMinutes * 60_000),
    });
  }
  builder.addLifecycleHooks({
    id: 'outbox-postgres',
    async stopping() {
      await Promise.all([pool.end(), dispatchPool?.end()]);
    },
  });
  return store;
}

/**
 * A pg pool the engine's stop ends and the next query opens again, so the store works after
 * `engine.restart()` (a pg.Pool cannot be used once ended). Nothing connects before the first query.
 */
class RestartablePool implements Queryable {
  private pool: pg.Pool | null = null;

  constructor(private readonly create: () => pg.Pool) {}

  query(text: string, values?: unknown[]) {
    this.pool ??= this.create();
    return this.pool.query(text, values);
  }

  async end(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.end().catch(() => undefined);
  }
}
