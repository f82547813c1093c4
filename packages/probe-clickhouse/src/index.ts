export { addClickHouseHealth } from './add-clickhouse-health';
export { clickHouseHealthProbe } from './clickhouse-health-probe';
export {
  clickHouseHealthEntryShape,
  clickHouseHealthOptionsSchema,
  resolveClickHouseTarget,
} from './clickhouse-health-options';
export type { ClickHouseHealthOptions, ClickHouseTarget } from './clickhouse-health-options';
