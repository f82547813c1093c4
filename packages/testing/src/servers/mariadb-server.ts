import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { refusedPort } from '../network-helpers';
import { findExecutable } from './find-executable';
import { startServerProcess, type ServerProcess } from './server-process';
import type { SelfSignedCertificate } from './tls-test-server';

export interface MariaDbServerOptions {
  /** Users created at every start (name → password), with every privilege on database `test`. */
  readonly users?: Readonly<Record<string, string>>;
  /** Serve TLS with this key and certificate. */
  readonly certificate?: SelfSignedCertificate;
  /** With a certificate: refuse connections that are not TLS (`require_secure_transport`). */
  readonly requireTls?: boolean;
}

/** A private MariaDB server on a spare loopback port: `root` without a password, database `test`. */
export interface MariaDbServerProcess extends ServerProcess {
  /** `mysql://root@127.0.0.1:<port>/test`. */
  readonly url: string;
  /** Stops the server and deletes its data directory. */
  close(): Promise<void>;
}

const sbin = ['/usr/sbin', '/usr/local/sbin', '/usr/local/mysql/bin'];

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * Creates a throw-away data directory with `mariadb-install-db` and starts `mariadbd` on 127.0.0.1 (as root
 * with `--user=root` when the tests run as root). start() resolves once the port accepts connections.
 */
export async function startMariaDbServer(options: MariaDbServerOptions = {}): Promise<MariaDbServerProcess> {
  const install = findExecutable(['mariadb-install-db', 'mysql_install_db'], sbin);
  const daemon = findExecutable(['mariadbd', 'mysqld'], sbin);
  if (!install || !daemon)
    throw new Error(
      'mariadb-install-db and mariadbd were not found on PATH or in /usr/sbin; install the MariaDB server package',
    );
  const port = await refusedPort();
  const directory = mkdtempSync(path.join(os.tmpdir(), 'corekit-mariadb-'));
  const dataDirectory = path.join(directory, 'data');
  const asRoot = process.getuid?.() === 0;
  const userArguments = asRoot ? ['--user=root'] : [];
  try {
    execFileSync(
      install,
      [
        '--no-defaults',
        `--datadir=${dataDirectory}`,
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
        '--skip-name-resolve',
        ...userArguments,
      ],
      { stdio: 'pipe' },
    );
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  // isolation-ok: the database lives in this private server's own data folder
  const statements = ['CREATE DATABASE IF NOT EXISTS test;'];
  for (const [name, password] of Object.entries(options.users ?? {})) {
    statements.push(
      `CREATE USER IF NOT EXISTS ${quote(name)}@'%' IDENTIFIED BY ${quote(password)};`,
      `GRANT ALL ON test.* TO ${quote(name)}@'%';`,
    );
  }
  const initFile = path.join(directory, 'init.sql');
  writeFileSync(initFile, `${statements.join('\n')}\n`);
  const args = [
    '--no-defaults',
    `--datadir=${dataDirectory}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--socket=${path.join(directory, 'mysqld.sock')}`,
    `--pid-file=${path.join(directory, 'mysqld.pid')}`,
    `--init-file=${initFile}`,
    '--skip-name-resolve',
    '--innodb-buffer-pool-size=16M',
    ...userArguments,
  ];
  if (options.certificate) {
    const keyFile = path.join(directory, 'server-key.pem');
    const certificateFile = path.join(directory, 'server-cert.pem');
    writeFileSync(keyFile, options.certificate.key, { mode: 0o600 });
    writeFileSync(certificateFile, options.certificate.cert);
    args.push(`--ssl-key=${keyFile}`, `--ssl-cert=${certificateFile}`);
    if (options.requireTls) args.push('--require-secure-transport=ON');
  }
  let server: ServerProcess;
  try {
    server = await startServerProcess({
      name: 'mariadbd',
      command: daemon,
      args,
      port,
      startTimeoutMs: 30000,
    });
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return Object.assign(server, {
    url: `mysql://root@127.0.0.1:${port}/test`,
    async close() {
      await server.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  });
}
