export { addOracleHealth } from './add-oracle-health';
export { oracleHealthProbe } from './oracle-health-probe';
export {
  oracleHealthEntryShape,
  oracleHealthOptionsSchema,
  oracleDefaultPort,
  oracleConnectString,
} from './oracle-health-options';
export type { OracleHealthOptions } from './oracle-health-options';
