import type { EngineBuilder } from '@corekit/abstractions';
import { addData, type DataRegistration, type DataRuntimeOptionsInput } from '@corekit/data';

/** Where the demo's PostgreSQL capture reads when `Engine:Data:CapturePump:PostgreSqlConnectionString` is not set. */
export const demoPostgresUrl = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Registers the data pack with a `warehouse` module declaring two CDC captures:
 *
 * - `stock-movements` on the shared polling pump (provider postgresql, table `demo_stock_movements`, change
 *   column `change_id`, outbox table `demo_cdc_outbox`). Without PostgreSQL, or without the table, the pump
 *   keeps running and the capture's runtime state reports the failure (failureKind provider or source).
 * - `inventory-snapshots` owned by the host-declared external runtime `inventory-sync`, which reports through
 *   `POST /engine/cdc-capture-runtimes/inventory-sync/reports` (external reporting is enabled; the route
 *   needs the host's authorization).
 */
export function addDataDemo(builder: EngineBuilder, options: DataRuntimeOptionsInput = {}): DataRegistration {
  builder.addModule({ id: 'warehouse', version: '1.0.0', displayName: 'Warehouse (data demo)' });
  builder.addCatalogEntries('outboxes', 'warehouse', [
    {
      id: 'warehouse-outbox',
      displayName: 'Warehouse outbox',
      description: 'PostgreSQL table demo_cdc_outbox, filled by the CDC capture pump',
      sourceModuleId: 'warehouse',
      provider: 'postgresql',
      mode: 'transactional-outbox',
    },
  ]);
  builder.addCatalogEntries('cdc-captures', 'warehouse', [
    {
      id: 'stock-movements',
      displayName: 'Stock movements',
      description: 'Rows of demo_stock_movements, in change_id order',
      sourceModuleId: 'warehouse',
      provider: 'postgresql',
      sourceId: 'demo-postgres',
      outboxId: 'warehouse-outbox',
      mode: 'polling',
      eventFormat: 'json-row',
      resourceIds: ['demo_stock_movements'],
      metadata: { sourceTable: 'demo_stock_movements', changeColumn: 'change_id' },
    },
    {
      id: 'inventory-snapshots',
      displayName: 'Inventory snapshots',
      description: 'Captured by an external connector that reports its progress',
      sourceModuleId: 'warehouse',
      provider: 'sqlserver',
      sourceId: 'inventory-db',
      outboxId: 'warehouse-outbox',
      mode: 'log-based',
      eventFormat: 'json',
      resourceIds: ['dbo.inventory'],
    },
  ]);
  const configured = builder.configuration.get('Engine:Data:CapturePump:PostgreSqlConnectionString');
  return addData(builder, {
    EnableExternalCdcRuntimeReporting: true,
    CdcExecutionRuntimes: [
      {
        Id: 'inventory-sync',
        Kind: 'external-managed',
        DisplayName: 'Inventory sync connector',
        CdcCaptureIds: ['inventory-snapshots'],
        ReporterLeaseSeconds: 60,
      },
    ],
    ...options,
    CapturePump: {
      PollIntervalMilliseconds: 5000,
      PostgreSqlOutboxTable: 'demo_cdc_outbox',
      PostgreSqlTimeoutMilliseconds: 2000,
      ...(configured ? {} : { PostgreSqlConnectionString: demoPostgresUrl }),
      ...options.CapturePump,
    },
  });
}
