import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { refusedPort } from '../network-helpers';
import { findExecutable, versionedDirectories } from './find-executable';
import { startServerProcess, type ServerProcess } from './server-process';
import type { SelfSignedCertificate } from './tls-test-server';

export interface PostgresServerOptions {
  /** Password of the superuser `postgres`; TCP connections must authenticate with SCRAM-SHA-256. */
  readonly password: string;
  /** Serve TLS with this key and certificate (`ssl = on`). */
  readonly certificate?: SelfSignedCertificate;
  /** With a certificate: refuse TCP connections that are not TLS (`hostnossl ... reject`). */
  readonly requireTls?: boolean;
  /** Extra `postgresql.conf` lines, e.g. `wal_level = logical` for logical decoding. */
  readonly settings?: readonly string[];
}

/** A private PostgreSQL cluster on a spare loopback port, with database `postgres` and user `postgres`. */
export interface PostgresServerProcess extends ServerProcess {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (without the password). */
  readonly url: string;
  /** Stops the server and deletes its data directory. */
  close(): Promise<void>;
}

function postgresBinary(name: string): string {
  const found = findExecutable([name], versionedDirectories('/usr/lib/postgresql', 'bin'));
  if (!found)
    throw new Error(
      `${name} was not found on PATH or in /usr/lib/postgresql/<version>/bin; install the PostgreSQL server package`,
    );
  return found;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates a throw-away cluster with `initdb` in a temporary directory and starts `postgres` on 127.0.0.1
 * (as the `postgres` system user when the tests run as root, since PostgreSQL refuses to run as root). The
 * server logs connections to its output. start() resolves once `pg_isready` reports it accepts connections.
 */
export async function startPostgresServer(options: PostgresServerOptions): Promise<PostgresServerProcess> {
  const initdb = postgresBinary('initdb');
  const postgres = postgresBinary('postgres');
  const isReady = postgresBinary('pg_isready');
  const port = await refusedPort();
  const directory = mkdtempSync(path.join(os.tmpdir(), 'corekit-postgres-'));
  const dataDirectory = path.join(directory, 'data');
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
      }
    : undefined;
  const asOwner = (command: string, args: string[]) =>
    asRoot
      ? {
          command: 'setpriv',
          args: ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', command, ...args],
        }
      : { command, args };
  const own = (file: string) => owner && chownSync(file, owner.uid, owner.gid);
  try {
    own(directory);
    const passwordFile = path.join(directory, 'password');
    writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o600 });
    own(passwordFile);
    const init = asOwner(initdb, [
      '-D',
      dataDirectory,
      '-U',
      'postgres',
      '--auth=scram-sha-256',
      `--pwfile=${passwordFile}`,
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ]);
    execFileSync(init.command, init.args, { stdio: 'pipe', cwd: directory });
    rmSync(passwordFile);

    const hba = ['local all all trust'];
    for (const address of ['127.0.0.1/32', '::1/128']) {
      if (options.certificate) hba.push(`hostssl all all ${address} scram-sha-256`);
      // Replication connections (logical decoding clients) match only the `replication` keyword.
      hba.push(
        `${options.certificate && options.requireTls ? 'hostssl' : 'host'} replication all ${address} scram-sha-256`,
      );
      hba.push(
        options.certificate && options.requireTls
          ? `hostnossl all all ${address} reject`
          : `host all all ${address} scram-sha-256`,
      );
    }
    writeFileSync(path.join(dataDirectory, 'pg_hba.conf'), `${hba.join('\n')}\n`);
    const settings = [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${directory}'`,
      'fsync = off',
      'shared_buffers = 16MB',
      'max_connections = 40',
      'log_connections = on',
      ...(options.settings ?? []),
    ];
    if (options.certificate) {
      for (const [file, content] of [
        ['server.key', options.certificate.key],
        ['server.crt', options.certificate.cert],
      ] as const) {
        const target = path.join(dataDirectory, file);
        writeFileSync(target, content);
        chmodSync(target, 0o600);
        own(target);
      }
      settings.push('ssl = on', "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'");
    }
    writeFileSync(path.join(dataDirectory, 'postgresql.auto.conf'), `${settings.join('\n')}\n`);
    own(path.join(dataDirectory, 'pg_hba.conf'));
    own(path.join(dataDirectory, 'postgresql.auto.conf'));
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }

  const waitUntilReady = async () => {
    const deadline = Date.now() + 15000;
    for (;;) {
      try {
        execFileSync(isReady, ['-h', '127.0.0.1', '-p', String(port), '-t', '1'], { stdio: 'pipe' });
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`PostgreSQL on port ${port} did not become ready: ${(error as Error).message}`);
        await pause(50);
      }
    }
  };
  const run = asOwner(postgres, ['-D', dataDirectory]);
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess({ name: 'postgres', command: run.command, args: run.args, port });
    await waitUntilReady();
  } catch (error) {
    await server?.stop();
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const started = server;
  const startAgain = started.start;
  return Object.assign(started, {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await startAgain();
      await waitUntilReady();
    },
    async close() {
      await started.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  });
}
