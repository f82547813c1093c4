import { type EngineBuilder } from '@corekit/abstractions';
import { cdcPollingProvidersKey } from '@corekit/data';
import {
  postgresLogicalDecodingOptionsSchema,
  type PostgresLogicalDecodingOptionsInput,
} from './logical-decoding-options';
import { PostgresLogicalDecodingProvider } from './logical-decoding-provider';

/** The capture `provider` value this package serves. */
export const postgresLogicalDecodingProvider = 'postgresql-logical';

/**
 * Adds the PostgreSQL logical-decoding provider (section `Engine:LogicalDecoding:PostgreSql`) to the shared
 * capture pump of `@corekit/data`: captures with `provider: 'postgresql-logical'` that the pump owns (list them
 * in `Engine:Data:CapturePump:CdcCaptureIds`) are streamed from a replication slot instead of polled. Call it
 * before `build()`; the provider's connections close when the engine stops and reopen when it starts again.
 */
export function addPostgresLogicalDecoding(
  builder: EngineBuilder,
  options?: PostgresLogicalDecodingOptionsInput,
): PostgresLogicalDecodingProvider {
  builder.claimRegistration({
    packageName: '@corekit/cdc-postgres-logical',
    entry: 'addPostgresLogicalDecoding',
  });
  builder.declarePack({ packageName: '@corekit/cdc-postgres-logical', specificationVersion: 1 });
  const settings = builder.configuration.bind(
    'Engine:LogicalDecoding:PostgreSql',
    postgresLogicalDecodingOptionsSchema,
    options,
  );
  const provider = new PostgresLogicalDecodingProvider({
    connectionString: settings.ConnectionString,
    outboxTable: settings.OutboxTable,
    maxBufferedChanges: settings.MaxBufferedChanges,
    timeoutMilliseconds: settings.TimeoutMilliseconds,
    snapshotMode: settings.SnapshotMode,
    ...(settings.HeartbeatQuery
      ? {
          heartbeat: {
            query: settings.HeartbeatQuery,
            intervalMilliseconds: settings.HeartbeatIntervalMilliseconds,
          },
        }
      : {}),
  });
  builder.provide(cdcPollingProvidersKey, [provider]);
  return provider;
}
