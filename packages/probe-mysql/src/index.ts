export { addMySqlHealth } from './add-mysql-health';
export { mySqlHealthProbe } from './mysql-health-probe';
export { mySqlHealthEntryShape, mySqlHealthOptionsSchema } from './mysql-health-options';
export type { MySqlHealthOptions } from './mysql-health-options';
export { mySqlSslModes } from './mysql-ssl-mode';
export type { MySqlSslMode } from './mysql-ssl-mode';
