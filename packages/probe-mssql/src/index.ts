export { addMssqlHealth } from './add-mssql-health';
export { mssqlHealthProbe } from './mssql-health-probe';
export { mssqlHealthEntryShape, mssqlHealthOptionsSchema, mssqlDefaultPort } from './mssql-health-options';
export type { MssqlHealthOptions } from './mssql-health-options';
export { readSqlServerConnectionString } from './sql-server-connection-string';
export type { SqlServerConnectionSettings } from './sql-server-connection-string';
