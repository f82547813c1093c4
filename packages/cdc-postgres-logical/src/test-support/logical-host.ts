import { createEngineBuilder } from '@corekit/engine-core';
import { dataRegistrationKey, type DataRegistration } from '@corekit/data';
import { pollUntil } from '@corekit/testing/poll-until';
import type pg from 'pg';
import { addOrdersCapture } from './orders-capture';

export type Engine = ReturnType<ReturnType<typeof createEngineBuilder>['build']>;

/** One log record as the engine wrote it. */
export interface LoggedRecord {
  readonly level: string;
  readonly eventId?: number;
  readonly message: string;
}

/** A started engine with the data pack and the logical-decoding provider, its records and state. */
export interface LogicalHost {
  readonly engine: Engine;
  readonly data: DataRegistration;
  readonly records: LoggedRecord[];
  /** Runs one pump pass now. */
  pass(): Promise<void>;
  /** The capture's runtime state as `/engine/cdc-captures/runtime/{id}` serves it. */
  state(): Record<string, any>;
}

/**
 * One capture `orders` on `names.table` with its own slot and publication, staged into `names.outbox`; passes
 * run only when the test triggers them. With `storeDirectory` the states live on the File store (they survive
 * a new host on the same folder).
 */
export async function startLogicalHost(options: {
  readonly url: string;
  readonly names: { table: string; outbox: string; slot: string; publication: string };
  readonly storeDirectory?: string;
  /** Over the pump defaults (BatchSize 100, passes only when triggered). */
  readonly pump?: Record<string, unknown>;
  readonly metadata?: Record<string, unknown>;
  /** The pump's reporter id (default `<pump id>@<hostname>`): a child process's, to take over its lease. */
  readonly reporterId?: string;
  /** Over the provider's options (`Engine:LogicalDecoding:PostgreSql`). */
  readonly logical?: Record<string, unknown>;
}): Promise<LogicalHost> {
  const records: LoggedRecord[] = [];
  const builder = createEngineBuilder({
    environment: {},
    logger: { log: (record: LoggedRecord) => void records.push(record) },
    ...(options.storeDirectory
      ? { configuration: { Engine: { Stores: { Provider: 'File', Directory: options.storeDirectory } } } }
      : {}),
  });
  addOrdersCapture(builder, {
    url: options.url,
    outbox: options.names.outbox,
    metadata: {
      sourceTable: options.names.table,
      slot: options.names.slot,
      publication: options.names.publication,
      ...options.metadata,
    },
    pump: { BatchSize: 100, PollIntervalMilliseconds: 3_600_000, ...options.pump },
    ...(options.reporterId ? { reporterId: options.reporterId } : {}),
    ...(options.logical ? { logical: options.logical } : {}),
  });
  const engine = builder.build();
  await engine.start();
  const data = engine.resolve(dataRegistrationKey)!;
  return {
    engine,
    data,
    records,
    async pass() {
      for (;;) {
        const outcome = await data.pumpJob!.trigger();
        if (outcome.status === 'completed') return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    state: () => data.runtime.states().find((state) => state.cdcCaptureId === 'orders')!,
  };
}

/** Runs passes until the outbox holds `count` rows of the capture; answers them in staging order. */
export async function passUntilStaged(host: LogicalHost, admin: pg.Client, outbox: string, count: number) {
  return pollUntil(
    async () => {
      await host.pass();
      const exists = await admin.query('SELECT to_regclass($1) AS name', [outbox]);
      if (exists.rows[0].name === null) return [];
      return (await admin.query(`SELECT change_id, payload FROM ${outbox} ORDER BY id`)).rows;
    },
    (rows) => rows.length >= count,
    { timeoutMs: 60_000, intervalMs: 20 },
  );
}

/** The slot as the server shows it (undefined when it does not exist). */
export async function slotRow(admin: pg.Client, slot: string) {
  const result = await admin.query(
    `SELECT confirmed_flush_lsn::text AS confirmed, to_jsonb(s)->>'wal_status' AS wal_status, active_pid,
            pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn)::bigint AS lag
       FROM pg_replication_slots s WHERE slot_name = $1`,
    [slot],
  );
  return result.rows[0] as
    { confirmed: string; wal_status: string | null; active_pid: number | null; lag: string } | undefined;
}

/** Ends the slot's walsender (as a failover or an operator does) and drops the slot. */
export async function dropSlot(admin: pg.Client, slot: string) {
  await admin.query(
    'SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = $1 AND active_pid IS NOT NULL',
    [slot],
  );
  await pollUntil(
    () => slotRow(admin, slot),
    (row) => row?.active_pid === null,
    { timeoutMs: 10_000 },
  );
  await admin.query('SELECT pg_drop_replication_slot($1)', [slot]);
}
