import { defineProbe } from '@corekit/probe-kit';
import { mySqlHealthProbe } from './mysql-health-probe';

/**
 * Registers one MySQL (or MariaDB) dependency-health contributor per entry of
 * `Engine:Observability:DependencyHealth:MySql`, with `options` merged over the configuration (code wins per
 * field; dependencies matched by Id). Fails with CONFIGURATION_INVALID naming the full key path when an
 * entry is invalid, or when Password or ConnectionString still holds a placeholder such as `<SECRET>`.
 */
export const addMySqlHealth = defineProbe(mySqlHealthProbe);
