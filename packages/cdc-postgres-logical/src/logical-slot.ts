import { CdcProviderError, quoteQualified, type CaptureRestart } from '@corekit/data';
import type pg from 'pg';
import { createSlotWithSnapshot, type ExportedSnapshot } from './logical-snapshot';

/** What a capture decodes from, and where it resumes. */
export interface SlotRequest {
  readonly table: string;
  readonly publication: string;
  readonly slot: string;
  /** The durable checkpoint (null for a capture that never ran, or after an operator's restart). */
  readonly checkpoint: string | null;
  readonly restart: CaptureRestart | undefined;
  /** When the slot must be made: make it with its snapshot exported (the initial snapshot reads it). */
  readonly exportSnapshot?: { readonly connectionString: string; readonly timeoutMilliseconds: number };
}

/** The slot as found (or made): its confirmed LSN, and the LSN it was created at when this call made it. */
export interface PreparedSlot {
  readonly confirmedLsn: string | null;
  readonly createdAtLsn: string | null;
  /** The exported snapshot of a slot made with `exportSnapshot`. */
  readonly exported: ExportedSnapshot | null;
}

interface Facts {
  wal_level: string;
  replication: boolean | null;
  max_slots: number;
  used_slots: number;
  table_exists: boolean;
  publication_exists: boolean;
}

/**
 * Checks what logical decoding needs before anything is created, so a refused start leaves nothing behind:
 * `wal_level = logical`, a role with REPLICATION, the source table, and a free slot when one must be made.
 * Each refusal is failureKind `prerequisite` with the statement that fixes it.
 */
async function checkPrerequisites(
  pool: pg.Pool,
  request: SlotRequest,
  slotMissing: boolean,
  slotsFreed: number,
): Promise<Facts> {
  const facts = (
    await pool.query<Facts>(
      `SELECT current_setting('wal_level') AS wal_level,
              (SELECT rolreplication OR rolsuper FROM pg_roles WHERE rolname = current_user) AS replication,
              current_setting('max_replication_slots')::int AS max_slots,
              (SELECT count(*) FROM pg_replication_slots)::int AS used_slots,
              to_regclass($1) IS NOT NULL AS table_exists,
              EXISTS (SELECT 1 FROM pg_publication WHERE pubname = $2) AS publication_exists`,
      [quoteQualified(request.table), request.publication],
    )
  ).rows[0]!;
  if (facts.wal_level !== 'logical') {
    throw new CdcProviderError(
      'prerequisite',
      'CDC_PREREQUISITE_WAL_LEVEL',
      `wal_level is ${facts.wal_level}; logical decoding needs logical: run ALTER SYSTEM SET wal_level = logical and restart PostgreSQL`,
    );
  }
  if (!facts.replication) {
    throw new CdcProviderError(
      'prerequisite',
      'CDC_PREREQUISITE_REPLICATION_ROLE',
      'the connection role lacks REPLICATION: run ALTER ROLE <the role> REPLICATION (as a superuser)',
    );
  }
  if (!facts.table_exists) {
    throw new CdcProviderError(
      'source',
      'CDC_SOURCE_UNAVAILABLE',
      `source ${request.table} does not exist (create it, or fix metadata.sourceTable)`,
    );
  }
  if (slotMissing && facts.used_slots - slotsFreed >= facts.max_slots) {
    throw new CdcProviderError(
      'prerequisite',
      'CDC_PREREQUISITE_NO_FREE_SLOT',
      `all ${facts.max_slots} replication slots are in use: drop an unused one (SELECT pg_drop_replication_slot('<name>')) or raise max_replication_slots and restart PostgreSQL`,
    );
  }
  return facts;
}

interface SlotRow {
  plugin: string;
  confirmed: string | null;
  wal_status: string | null;
  active_pid: number | null;
}

async function findSlot(pool: pg.Pool, slot: string): Promise<SlotRow | null> {
  const result = await pool.query<SlotRow>(
    `SELECT plugin, confirmed_flush_lsn::text AS confirmed, to_jsonb(s)->>'wal_status' AS wal_status, active_pid
       FROM pg_replication_slots s WHERE slot_name = $1`,
    [slot],
  );
  return result.rows[0] ?? null;
}

/**
 * Finds the capture's slot, or makes it, never papering over a gap: a slot that is missing while the
 * capture has a checkpoint (dropped, or a failover to a server without it), or whose WAL was removed
 * (`wal_status = lost`), is failureKind `gap`; only an operator's restart (`accept-gap`, `re-snapshot`) drops
 * and makes it again. Prerequisites are checked before anything is created, and a publication this call
 * created is dropped again when the slot cannot be made.
 */
export async function prepareSlot(pool: pg.Pool, request: SlotRequest): Promise<PreparedSlot> {
  let found = await findSlot(pool, request.slot);
  // A re-snapshot always makes the slot again (its snapshot must be exported at creation); accepting a gap
  // drops only a slot whose WAL is gone. A healthy slot found while accepting (made by an earlier attempt that
  // died before it was recorded, or by the operator) is kept: streaming from it delivers more, never less.
  const replace =
    found !== null &&
    (request.restart === 're-snapshot' || (request.restart !== undefined && found.wal_status === 'lost'));
  const facts = await checkPrerequisites(pool, request, found === null || replace, replace ? 1 : 0);
  if (found && found.plugin !== 'pgoutput') {
    throw new CdcProviderError(
      'source',
      'CDC_SLOT_PLUGIN_MISMATCH',
      `replication slot ${request.slot} decodes with ${found.plugin}, not pgoutput`,
    );
  }
  if (found && replace) {
    if (found.active_pid !== null) await pool.query('SELECT pg_terminate_backend($1)', [found.active_pid]);
    await pool.query('SELECT pg_drop_replication_slot($1)', [request.slot]);
    found = null;
  }
  if (found?.wal_status === 'lost') {
    throw new CdcProviderError(
      'gap',
      'CDC_GAP_SLOT_INVALIDATED',
      `replication slot ${request.slot} was invalidated (wal_status lost, e.g. by max_slot_wal_keep_size): the WAL after ${found.confirmed ?? request.checkpoint ?? 'its position'} is gone`,
    );
  }
  if (found) return { confirmedLsn: found.confirmed, createdAtLsn: null, exported: null };
  if (request.checkpoint !== null && !request.restart) {
    throw new CdcProviderError(
      'gap',
      'CDC_GAP_SLOT_MISSING',
      `replication slot ${request.slot} no longer exists (dropped, or a failover to a server without it): the changes after ${request.checkpoint} cannot be read`,
    );
  }
  let createdPublication = false;
  if (!facts.publication_exists) {
    await pool.query(
      `CREATE PUBLICATION "${request.publication}" FOR TABLE ${quoteQualified(request.table)}`,
    );
    createdPublication = true;
  }
  try {
    if (request.exportSnapshot) {
      const exported = await createSlotWithSnapshot(
        request.exportSnapshot.connectionString,
        request.slot,
        request.exportSnapshot.timeoutMilliseconds,
      );
      return { confirmedLsn: exported.consistentPoint, createdAtLsn: exported.consistentPoint, exported };
    }
    const created = await pool.query<{ lsn: string }>(
      `SELECT lsn::text AS lsn FROM pg_create_logical_replication_slot($1, 'pgoutput')`,
      [request.slot],
    );
    return { confirmedLsn: created.rows[0]!.lsn, createdAtLsn: created.rows[0]!.lsn, exported: null };
  } catch (error) {
    if (createdPublication)
      await pool.query(`DROP PUBLICATION IF EXISTS "${request.publication}"`).catch(() => undefined);
    throw error;
  }
}
