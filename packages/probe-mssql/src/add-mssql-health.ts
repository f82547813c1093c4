import { defineProbe } from '@corekit/probe-kit';
import { mssqlHealthProbe } from './mssql-health-probe';

/**
 * Registers one SQL Server dependency-health contributor per entry of
 * `Engine:Observability:DependencyHealth:SqlServer`, with `options` merged over the configuration (code wins per
 * field; dependencies matched by Id). Fails with CONFIGURATION_INVALID naming the full key path when an entry
 * is invalid.
 */
export const addMssqlHealth = defineProbe(mssqlHealthProbe);
