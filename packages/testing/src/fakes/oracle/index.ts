export { startOracleFakeServer } from './oracle-fake-server';
export type {
  OracleFakeServer,
  OracleFakeServerOptions,
  OracleFakeServerRecord,
  OracleResult,
} from './oracle-fake-server';
