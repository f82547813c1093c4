export { startCassandraFakeServer } from './cassandra-fake-server';
export type {
  CassandraFakeServer,
  CassandraFakeServerOptions,
  CassandraFrameRecord,
} from './cassandra-fake-server';
export type { CassandraFakePeer, CqlTable } from './cassandra-fake-tables';
export type { CqlType } from './cassandra-wire';
