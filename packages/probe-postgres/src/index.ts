export { addPostgresHealth } from './add-postgres-health';
export { postgresHealthProbe } from './postgres-health-probe';
export { postgresHealthEntryShape, postgresHealthOptionsSchema } from './postgres-health-options';
export type { PostgresHealthOptions } from './postgres-health-options';
export { postgresSslModes } from './postgres-ssl-mode';
export type { PostgresSslMode } from './postgres-ssl-mode';
