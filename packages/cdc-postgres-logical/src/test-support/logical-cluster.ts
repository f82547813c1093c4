import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgresServer, type PostgresServerProcess } from '@corekit/testing/servers/postgres-server';
import pg from 'pg';
import { startLogicalHost, type LogicalHost } from './logical-host';

/** A test file's own PostgreSQL cluster with `wal_level = logical`, and the hosts and folders of its tests. */
export interface LogicalCluster {
  readonly password: string;
  readonly server: PostgresServerProcess;
  /** The server's URL with the password of `postgres`. */
  readonly url: string;
  /** A connection of `postgres`, open for the file's tests. */
  readonly admin: pg.Client;
  /** startLogicalHost() on this cluster (unless `url` says otherwise); the host is stopped after the test. */
  start(
    options: Omit<Parameters<typeof startLogicalHost>[0], 'url'> & { readonly url?: string },
  ): Promise<LogicalHost>;
  /** Stops a host start() answered before its test ends. */
  stop(host: LogicalHost): Promise<void>;
  /** Stops the hosts start() answered in this test (as after it). */
  stopAll(): Promise<void>;
  /** A new temporary folder, removed after the file's tests. */
  folder(prefix: string): string;
}

/** A test's table, outbox, slot and publication: `<prefix>_<test>`, `<prefix>_outbox_<test>`... */
export function logicalNames(prefix: string, test: string) {
  return {
    table: `${prefix}_${test}`,
    outbox: `${prefix}_outbox_${test}`,
    slot: `${prefix}_slot_${test}`,
    publication: `${prefix}_pub_${test}`,
  };
}

/**
 * Starts a PostgreSQL cluster of the calling test file's own (initdb on a free port, `wal_level = logical`) in
 * beforeAll, with `maxReplicationSlots` slots (default 8) and 8 WAL senders; stops the hosts of each test after
 * it, and the cluster (and removes the folders) after the file. `timeoutMs` bounds the start (else jest's).
 */
export function logicalCluster(options: {
  readonly password: string;
  readonly maxReplicationSlots?: number;
  readonly timeoutMs?: number;
}): LogicalCluster {
  const { password } = options;
  let server: PostgresServerProcess | undefined;
  let url: string | undefined;
  let admin: pg.Client | undefined;
  const hosts: LogicalHost[] = [];
  const folders: string[] = [];

  beforeAll(async () => {
    server = await startPostgresServer({
      password,
      settings: [
        'wal_level = logical',
        `max_replication_slots = ${options.maxReplicationSlots ?? 8}`,
        'max_wal_senders = 8',
      ],
    });
    url = server.url.replace('postgres@', `postgres:${password}@`);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  }, options.timeoutMs);

  afterAll(async () => {
    await admin?.end();
    await server?.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  const stopAll = async () => {
    for (const host of hosts.splice(0)) await host.engine.stop();
  };
  afterEach(stopAll);

  return {
    password,
    get server() {
      return server!;
    },
    get url() {
      return url!;
    },
    get admin() {
      return admin!;
    },
    async start(hostOptions) {
      const host = await startLogicalHost({ ...hostOptions, url: hostOptions.url ?? url! });
      hosts.push(host);
      return host;
    },
    async stop(host) {
      hosts.splice(hosts.indexOf(host), 1);
      await host.engine.stop();
    },
    stopAll,
    folder(prefix) {
      const folder = mkdtempSync(join(tmpdir(), prefix));
      folders.push(folder);
      return folder;
    },
  };
}
