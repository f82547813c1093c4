export { addCassandraHealth } from './add-cassandra-health';
export { cassandraHealthProbe } from './cassandra-health-probe';
export {
  cassandraHealthEntryShape,
  cassandraHealthOptionsSchema,
  cassandraDefaultPort,
  defaultCassandraHealthQuery,
} from './cassandra-health-options';
export type { CassandraHealthOptions } from './cassandra-health-options';
