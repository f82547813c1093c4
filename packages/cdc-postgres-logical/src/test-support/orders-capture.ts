import type { EngineBuilder } from '@corekit/abstractions';
import { addData } from '@corekit/data';
import { addPostgresLogicalDecoding } from '../add-postgres-logical-decoding';

/**
 * Registers module `orders` with one capture `orders` (provider `postgresql-logical`, source `test-db`) on the
 * data pack's capture pump, staged into `outbox` on `url`. Used by the in-process hosts of the tests and by the
 * child-process fixtures (src/test-fixtures), which import it by relative path.
 */
export function addOrdersCapture(
  builder: EngineBuilder,
  options: {
    readonly url: string;
    readonly outbox: string;
    /** The capture's metadata: `sourceTable`, and `slot`, `publication`, `snapshotMode`... */
    readonly metadata: Record<string, unknown>;
    /** The `CapturePump` options besides `CdcCaptureIds`. */
    readonly pump: Record<string, unknown>;
    /** The pump's reporter id (default `<pump id>@<hostname>`). */
    readonly reporterId?: string;
    /** Over the provider's options (`Engine:LogicalDecoding:PostgreSql`). */
    readonly logical?: Record<string, unknown>;
  },
): void {
  builder.addModule({ id: 'orders', version: '1.0.0' });
  builder.addCatalogEntries('cdc-captures', 'orders', [
    {
      id: 'orders',
      displayName: 'Orders',
      sourceModuleId: 'orders',
      provider: 'postgresql-logical',
      sourceId: 'test-db',
      mode: 'logical',
      eventFormat: 'json',
      metadata: options.metadata,
    },
  ]);
  addData(
    builder,
    {
      CapturePump: { CdcCaptureIds: ['orders'], ...options.pump },
      ChangeStreamPump: { Enabled: false },
    },
    options.reporterId ? { pumpReporterId: options.reporterId } : {},
  );
  addPostgresLogicalDecoding(builder, {
    ConnectionString: options.url,
    OutboxTable: options.outbox,
    ...options.logical,
  });
}
