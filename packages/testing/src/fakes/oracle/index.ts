export { startOracleFakeServer } from './oracle-fake-server';
export type { OracleFakeServer, OracleFakeServerOptions, OracleFakeServerRecord } from './oracle-fake-server';
