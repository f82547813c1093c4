import { requireService } from '@corekit/testing/require-service';

/**
 * The real ClickHouse server the tests use: CLICKHOUSE_URL (default http://127.0.0.1:8123, started by
 * tools/ci/clickhouse.sh). Tests that need a user with a password take the credentials in that URL
 * (`http://user:password@host:8123`), else corekit_probe / corekit-probe-password, which the script creates.
 */
const configured = new URL(process.env.CLICKHOUSE_URL ?? 'http://127.0.0.1:8123');
export const clickHouseUser = configured.username ? decodeURIComponent(configured.username) : 'corekit_probe';
export const clickHousePassword = configured.password
  ? decodeURIComponent(configured.password)
  : 'corekit-probe-password';
configured.username = '';
configured.password = '';
/** The server address without credentials. */
export const clickHouseUrl = configured.toString().replace(/\/$/, '');

/** Throws (the test fails, in CI and elsewhere) when the server does not accept connections. */
export async function ensureClickHouse(): Promise<void> {
  if (!(await requireService('ClickHouse', clickHouseUrl, 'CLICKHOUSE_URL'))) {
    throw new Error(
      `ClickHouse is not reachable at ${new URL(clickHouseUrl).host}: run tools/ci/clickhouse.sh or set CLICKHOUSE_URL`,
    );
  }
}
