import { defineProbe } from '@corekit/probe-kit';
import { clickHouseHealthProbe } from './clickhouse-health-probe';

/**
 * Registers one ClickHouse dependency-health contributor per entry of
 * `Engine:Observability:DependencyHealth:ClickHouse`, with `options` merged over the configuration (code
 * wins per field; dependencies matched by Id). Fails with CONFIGURATION_INVALID naming the full key path
 * when an entry is invalid.
 */
export const addClickHouseHealth = defineProbe(clickHouseHealthProbe);
