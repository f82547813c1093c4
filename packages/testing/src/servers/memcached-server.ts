import { refusedPort } from '../network-helpers';
import { startServerProcess, type ServerProcess } from './server-process';

/** A private memcached process on a spare loopback port. */
export interface MemcachedServerProcess extends ServerProcess {
  /** `memcached://127.0.0.1:<port>`. */
  readonly url: string;
}

/** Starts `memcached` (from PATH) on 127.0.0.1 (TCP only, 16 MB), for tests that stop and restart it. */
export async function startMemcachedServer(): Promise<MemcachedServerProcess> {
  const port = await refusedPort();
  const args = ['-l', '127.0.0.1', '-p', String(port), '-U', '0', '-m', '16'];
  if (process.getuid?.() === 0) args.push('-u', 'root');
  const server = await startServerProcess({ name: 'memcached', command: 'memcached', args, port });
  return Object.assign(server, { url: `memcached://127.0.0.1:${port}` });
}
