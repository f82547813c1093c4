// The tables the fake Cassandra node serves (system.local, system.peers, the system_schema tables and any
// table a test adds) and a small evaluator for `SELECT <columns | *> FROM [keyspace.]table [WHERE a = 'x'
// [AND ...]] [LIMIT n] [ALLOW FILTERING]`, answering errors with the messages Cassandra 3.11 uses.
import type { CqlType } from './cassandra-wire';

/** A table: ordered column definitions and rows keyed by column name. */
export interface CqlTable {
  columns: ReadonlyArray<readonly [name: string, type: CqlType]>;
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>;
}

/** Another node of the ring, as system.peers lists it. */
export interface CassandraFakePeer {
  /** rpc_address of the peer; drivers connect there on the same port as the contact point. */
  address: string;
  /** Default the fake node's data center. */
  dataCenter?: string;
}

export interface CassandraFakeNode {
  clusterName: string;
  dataCenter: string;
  rack: string;
  releaseVersion: string;
  address: string;
  peers: readonly CassandraFakePeer[];
  /** Extra tables, keyed `keyspace.table`; their keyspaces exist. */
  tables: Readonly<Record<string, CqlTable>>;
  /** Extra empty keyspaces. */
  keyspaces: readonly string[];
}

export type SelectOutcome =
  | {
      kind: 'rows';
      keyspace: string;
      table: string;
      columns: ReadonlyArray<readonly [string, CqlType]>;
      rows: Array<Record<string, unknown>>;
    }
  | { kind: 'error'; code: 'syntax' | 'invalid'; message: string };

const schemaVersion = '5a7c1f40-0a3b-3d1e-9a51-3f0c5e7d2b11';
const systemKeyspaces = ['system', 'system_auth', 'system_distributed', 'system_schema', 'system_traces'];

function hostId(seed: string): string {
  const hex = Buffer.from(seed.padEnd(16, '#')).subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Builds every table of the node, keyed `keyspace.table`. */
export function buildTables(node: CassandraFakeNode): {
  tables: Map<string, CqlTable>;
  keyspaces: Set<string>;
} {
  const tables = new Map<string, CqlTable>();
  tables.set('system.local', {
    columns: [
      ['key', 'text'],
      ['bootstrapped', 'text'],
      ['broadcast_address', 'inet'],
      ['cluster_name', 'text'],
      ['cql_version', 'text'],
      ['data_center', 'text'],
      ['host_id', 'uuid'],
      ['listen_address', 'inet'],
      ['native_protocol_version', 'text'],
      ['partitioner', 'text'],
      ['rack', 'text'],
      ['release_version', 'text'],
      ['rpc_address', 'inet'],
      ['schema_version', 'uuid'],
      ['tokens', { set: 'text' }],
    ],
    rows: [
      {
        key: 'local',
        bootstrapped: 'COMPLETED',
        broadcast_address: node.address,
        cluster_name: node.clusterName,
        cql_version: '3.4.4',
        data_center: node.dataCenter,
        host_id: hostId(node.address),
        listen_address: node.address,
        native_protocol_version: '4',
        partitioner: 'org.apache.cassandra.dht.Murmur3Partitioner',
        rack: node.rack,
        release_version: node.releaseVersion,
        rpc_address: node.address,
        schema_version: schemaVersion,
        tokens: ['-9223372036854775808'],
      },
    ],
  });
  tables.set('system.peers', {
    columns: [
      ['peer', 'inet'],
      ['data_center', 'text'],
      ['host_id', 'uuid'],
      ['preferred_ip', 'inet'],
      ['rack', 'text'],
      ['release_version', 'text'],
      ['rpc_address', 'inet'],
      ['schema_version', 'uuid'],
      ['tokens', { set: 'text' }],
    ],
    rows: node.peers.map((peer, index) => ({
      peer: peer.address,
      data_center: peer.dataCenter ?? node.dataCenter,
      host_id: hostId(peer.address),
      preferred_ip: null,
      rack: node.rack,
      release_version: node.releaseVersion,
      rpc_address: peer.address,
      schema_version: schemaVersion,
      tokens: [String(index + 1)],
    })),
  });
  const keyspaces = new Set([...systemKeyspaces, ...node.keyspaces]);
  for (const [name, table] of Object.entries(node.tables)) {
    tables.set(name, table);
    keyspaces.add(name.split('.')[0]);
  }
  tables.set('system_schema.keyspaces', {
    columns: [
      ['keyspace_name', 'text'],
      ['durable_writes', 'boolean'],
      ['replication', { map: ['text', 'text'] }],
    ],
    rows: [...keyspaces].map((keyspace) => ({
      keyspace_name: keyspace,
      durable_writes: true,
      replication: systemKeyspaces.includes(keyspace)
        ? { class: 'org.apache.cassandra.locator.LocalStrategy' }
        : { class: 'org.apache.cassandra.locator.SimpleStrategy', replication_factor: '1' },
    })),
  });
  // The remaining schema tables exist (the driver may read them on demand) but describe nothing.
  const schemaKeys: Record<string, string> = {
    tables: 'table_name',
    columns: 'table_name',
    types: 'type_name',
    functions: 'function_name',
    aggregates: 'aggregate_name',
    views: 'view_name',
    indexes: 'table_name',
    triggers: 'table_name',
  };
  for (const [table, key] of Object.entries(schemaKeys)) {
    tables.set(`system_schema.${table}`, {
      columns: [
        ['keyspace_name', 'text'],
        [key, 'text'],
      ],
      rows: [],
    });
  }
  return { tables, keyspaces };
}

const selectPattern =
  /^\s*SELECT\s+(.+?)\s+FROM\s+([A-Za-z0-9_".]+)(?:\s+WHERE\s+(.+?))?(?:\s+LIMIT\s+(\d+))?(?:\s+ALLOW\s+FILTERING)?\s*;?\s*$/is;

function unquote(identifier: string): string {
  const trimmed = identifier.trim();
  return trimmed.startsWith('"') ? trimmed.slice(1, -1) : trimmed.toLowerCase();
}

/** Evaluates one SELECT against the node's tables. */
export function evaluateSelect(
  query: string,
  currentKeyspace: string | null,
  tables: ReadonlyMap<string, CqlTable>,
  keyspaces: ReadonlySet<string>,
): SelectOutcome {
  const match = selectPattern.exec(query);
  if (!match) {
    const word = query.trim().split(/\s+/)[0] ?? '';
    return { kind: 'error', code: 'syntax', message: `line 1:0 no viable alternative at input '${word}'` };
  }
  const [, projection, from, where, limit] = match;
  const parts = from.split('.');
  const keyspace = parts.length > 1 ? unquote(parts[0]) : currentKeyspace;
  const tableName = unquote(parts[parts.length - 1]);
  if (!keyspace) {
    return {
      kind: 'error',
      code: 'invalid',
      message: 'No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename',
    };
  }
  if (!keyspaces.has(keyspace))
    return { kind: 'error', code: 'invalid', message: `Keyspace ${keyspace} does not exist` };
  const table = tables.get(`${keyspace}.${tableName}`);
  if (!table) return { kind: 'error', code: 'invalid', message: `unconfigured table ${tableName}` };

  const known = new Map(table.columns.map(([name, type]) => [name, type] as const));
  const names =
    projection.trim() === '*' ? table.columns.map(([name]) => name) : projection.split(',').map(unquote);
  for (const name of names) {
    if (!known.has(name)) return { kind: 'error', code: 'invalid', message: `Undefined column name ${name}` };
  }
  const conditions: Array<[string, string]> = [];
  for (const condition of where ? where.split(/\s+AND\s+/i) : []) {
    const parsed = /^\s*("?[A-Za-z0-9_]+"?)\s*=\s*(?:'((?:[^']|'')*)'|(-?[0-9.]+))\s*$/.exec(condition);
    if (!parsed)
      return {
        kind: 'error',
        code: 'syntax',
        message: `line 1:0 no viable alternative at input '${condition.trim()}'`,
      };
    const column = unquote(parsed[1]);
    if (!known.has(column))
      return { kind: 'error', code: 'invalid', message: `Undefined column name ${column}` };
    conditions.push([column, parsed[2] !== undefined ? parsed[2].replace(/''/g, "'") : parsed[3]]);
  }
  const rows = table.rows
    .filter((row) => conditions.every(([column, value]) => String(row[column]) === value))
    .slice(0, limit ? Number(limit) : undefined)
    .map((row) => Object.fromEntries(names.map((name) => [name, row[name]])));
  return {
    kind: 'rows',
    keyspace,
    table: tableName,
    columns: names.map((name) => [name, known.get(name)!] as const),
    rows,
  };
}
