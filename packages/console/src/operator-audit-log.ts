import { randomBytes } from 'node:crypto';
import {
  errorCode,
  operatorAuditEntrySchema,
  storeErrorCodes,
  StoreMirror,
  type CatalogDefinition,
  type KeyedStore,
  type OperatorAuditEntry,
  type OperatorAuditSink,
} from '@corekit/abstractions';

export interface OperatorAuditLogOptions {
  /** How long an entry is kept (store TTL). */
  readonly retentionMs: number;
  /** How often the copy behind the catalog re-reads a shared store without a change feed. */
  readonly refreshMs: number;
  /** Told about an entry that could not be written (never the entry's secrets: it holds none). */
  readonly onWriteFailed: (entry: Omit<OperatorAuditEntry, 'id'>, error: unknown) => void;
  readonly onRefreshFailure?: (error: unknown) => void;
}

/** Route of the audit catalog. */
export const operatorAuditPath = '/engine/operator-audit';

/** One line saying who did what to what and how it ended: the catalog's `description` (list views show it). */
export function describeAuditEntry(entry: OperatorAuditEntry): string {
  const who = entry.actor ?? (entry.via === 'anonymous' ? 'anonymous' : 'unidentified caller');
  const what = entry.target ? `${entry.action} on ${entry.target}` : entry.action;
  const how = entry.code
    ? `${entry.outcome} (${entry.status} ${entry.code})`
    : `${entry.outcome} (${entry.status})`;
  return `${who} via ${entry.via}: ${what}, ${how}`;
}

/**
 * The operator audit: every guarded operation that changed state, as the host recorded it (the web host hands
 * each to `operatorAuditKey`), plus the console's own sign-in and sign-out, on the engine's store
 * (`console-operator-audit`): kept `retentionMs`, at most the store's bound (the oldest entry is dropped for a
 * new one), shared by replicas on a shared store. Keys are time-ordered (`<atUtc>-<random>`), so the store's key
 * order is the order of events. Served as the `operator-audit` catalog, newest first.
 */
export class OperatorAuditLog implements OperatorAuditSink {
  private readonly mirror: StoreMirror<OperatorAuditEntry>;
  private pending = Promise.resolve();
  /** Orders entries of one process recorded within the same millisecond. */
  private sequence = 0;

  constructor(
    private readonly store: KeyedStore<OperatorAuditEntry>,
    private readonly options: OperatorAuditLogOptions,
  ) {
    this.mirror = new StoreMirror(store, {
      refreshMs: options.refreshMs,
      onRefreshFailure: options.onRefreshFailure,
    });
  }

  /** Entries recorded and not written yet: listed already, so a read right after the action finds it. */
  private readonly unwritten = new Map<string, OperatorAuditEntry>();

  record(entry: Omit<OperatorAuditEntry, 'id'>): void {
    const order = String(this.sequence++ % 1_000_000).padStart(6, '0');
    const full: OperatorAuditEntry = {
      id: `${entry.atUtc}-${order}${randomBytes(3).toString('hex')}`,
      ...entry,
    };
    this.unwritten.set(full.id, full);
    this.pending = this.pending
      .then(() => this.write(full))
      .catch((error) => this.options.onWriteFailed(entry, error))
      .finally(() => this.unwritten.delete(full.id));
  }

  /** Resolves once every entry recorded so far was written (tests, shutdown). */
  flushed(): Promise<void> {
    return this.pending;
  }

  private async write(full: OperatorAuditEntry): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const result = await this.store.put(full.id, full, {
          expectedVersion: 0,
          ttlMs: this.options.retentionMs,
        });
        if (result.written) this.mirror.remember(result.record);
        return;
      } catch (error) {
        if (errorCode(error) !== storeErrorCodes.full) throw error;
        // Full: the oldest entry (first in key order) makes room for the new one.
        const [oldest] = await this.store.list({ limit: 1 });
        if (oldest && (await this.store.delete(oldest.key))) this.mirror.forget(oldest.key);
      }
    }
  }

  /** Newest first. */
  entries(): OperatorAuditEntry[] {
    const written = this.mirror.values().filter((entry) => !this.unwritten.has(entry.id));
    return [...written, ...this.unwritten.values()].sort((left, right) =>
      left.id < right.id ? 1 : left.id > right.id ? -1 : 0,
    );
  }

  start(shared: boolean): Promise<void> {
    return this.mirror.start(shared);
  }

  stop(): void {
    this.mirror.stop();
  }

  /** The `operator-audit` catalog (`/engine/operator-audit`, by id, and the refused and failed entries). */
  catalog(): CatalogDefinition<OperatorAuditEntry> {
    return {
      id: 'operator-audit',
      displayName: 'Operator audit',
      description:
        'Who did what, when, to what, and how it ended: every guarded operation that changes state, through any client of the host, and console sign-ins and sign-outs (newest first)',
      path: operatorAuditPath,
      snapshotField: 'operatorAudit',
      idField: 'id',
      entrySchema: operatorAuditEntrySchema,
      views: [
        {
          segment: 'refused',
          description:
            'actions the host refused (401, 403: no credential, not allowed, a cross-site attempt)',
          select: (entry) => entry.outcome === 'refused',
        },
      ],
      list: () => this.entries(),
      present: (entry) => ({ ...entry, description: describeAuditEntry(entry) }),
    };
  }
}
