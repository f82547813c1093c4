import { runCommand } from '@corekit/testing/run-command';

/** Creates database `name` on the server of `serverUrl` (psql); answers the URL of the new database. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  await runCommand('psql', [serverUrl, '-v', 'ON_ERROR_STOP=1', '-c', `CREATE DATABASE ${name}`], {
    cwd: process.cwd(),
    timeoutMs: 60_000,
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** Drops database `name` (connections still open to it are ended), best effort. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await runCommand('psql', [serverUrl, '-c', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`], {
    cwd: process.cwd(),
    timeoutMs: 60_000,
  }).catch((error: Error) => console.warn(`could not drop database ${name}: ${error.message}`));
}
