export { startMssqlFakeServer, mssqlLoginFailedMessage } from './mssql-fake-server';
export type { MssqlFakeServer, MssqlFakeServerOptions, MssqlFakeServerRecord } from './mssql-fake-server';
export type { TdsValue } from './tds-encoding';
