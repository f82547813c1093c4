import { requireService } from '@corekit/testing';

/**
 * The real ClickHouse server the tests use: CLICKHOUSE_URL (default http://127.0.0.1:8123, started by
 * tools/ci/clickhouse.sh) and the password user CLICKHOUSE_USER / CLICKHOUSE_PASSWORD (default
 * corekit_probe / corekit-probe-password, created by the same script).
 */
export const clickHouseUrl = process.env.CLICKHOUSE_URL ?? 'http://127.0.0.1:8123';
export const clickHouseUser = process.env.CLICKHOUSE_USER ?? 'corekit_probe';
export const clickHousePassword = process.env.CLICKHOUSE_PASSWORD ?? 'corekit-probe-password';

/** Throws (the test fails, in CI and elsewhere) when the server does not accept connections. */
export async function ensureClickHouse(): Promise<void> {
  if (!(await requireService('ClickHouse', clickHouseUrl, 'CLICKHOUSE_URL'))) {
    throw new Error(`ClickHouse is not reachable at ${new URL(clickHouseUrl).host}: run tools/ci/clickhouse.sh or set CLICKHOUSE_URL`);
  }
}
