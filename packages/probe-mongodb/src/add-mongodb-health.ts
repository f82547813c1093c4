import { defineProbe } from '@corekit/probe-kit';
import { mongoDbHealthProbe } from './mongodb-health-probe';

/**
 * Registers one MongoDB dependency-health contributor per entry of `Engine:Observability:DependencyHealth:MongoDb`,
 * with `options` merged over the configuration (code wins per field; dependencies matched by Id). Fails
 * with CONFIGURATION_INVALID naming the full key path when an entry is invalid.
 */
export const addMongoDbHealth = defineProbe(mongoDbHealthProbe);
