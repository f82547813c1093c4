import { refusedPort } from '../network-helpers';
import { startServerProcess, type ServerProcess } from './server-process';

export interface RedisServerOptions {
  /** The default user requires this password (`requirepass`). */
  readonly password?: string;
  /** Extra ACL users (name → password), each allowed every command and key. */
  readonly users?: Readonly<Record<string, string>>;
}

/** A private redis-server process on a spare loopback port, with nothing persisted to disk. */
export interface RedisServerProcess extends ServerProcess {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
}

/**
 * Starts `redis-server` (from PATH) on 127.0.0.1 without persistence, for tests that need authentication
 * or must stop and restart the server. Stop it in `afterAll`.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServerProcess> {
  const port = await refusedPort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--protected-mode',
    'no',
  ];
  if (options.password !== undefined) args.push('--requirepass', options.password);
  for (const [name, password] of Object.entries(options.users ?? {}))
    args.push('--user', name, 'on', `>${password}`, '~*', '&*', '+@all');
  const server = await startServerProcess({ name: 'redis-server', command: 'redis-server', args, port });
  return Object.assign(server, { url: `redis://127.0.0.1:${port}` });
}
