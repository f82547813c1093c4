import { refusedPort } from '../network-helpers';
import { startServerProcess, type ServerProcess } from './server-process';

export interface NatsServerOptions {
  /** With `password`: the server requires this user (`--user`). */
  readonly user?: string;
  readonly password?: string;
  /** The server requires this token (`--auth`). */
  readonly token?: string;
  /** Also start the HTTP monitoring endpoint (`/connz`...) on a spare port. */
  readonly monitoring?: boolean;
  /** Require TLS (`--tls`) with this PEM certificate and key (files); the INFO line then says tls_required. */
  readonly tls?: { readonly certificateFile: string; readonly keyFile: string };
}

/** A private nats-server process on a spare loopback port. */
export interface NatsServerProcess extends ServerProcess {
  /** `nats://127.0.0.1:<port>`. */
  readonly url: string;
  /** Port of the HTTP monitoring endpoint, when requested. */
  readonly monitoringPort?: number;
}

/**
 * Starts `nats-server` (from PATH) on 127.0.0.1 with the given authentication, for
 * tests that need credentials or must stop and restart the server. Stop it in `afterAll`.
 */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServerProcess> {
  const port = await refusedPort();
  const monitoringPort = options.monitoring ? await refusedPort() : undefined;
  const args = ['-a', '127.0.0.1', '-p', String(port), '--server_name', `corekit-test-${port}`];
  if (options.user !== undefined) args.push('--user', options.user, '--pass', options.password ?? '');
  if (options.token !== undefined) args.push('--auth', options.token);
  if (monitoringPort !== undefined) args.push('-m', String(monitoringPort));
  if (options.tls)
    args.push('--tls', '--tlscert', options.tls.certificateFile, '--tlskey', options.tls.keyFile);
  const server = await startServerProcess({ name: 'nats-server', command: 'nats-server', args, port });
  return Object.assign(server, {
    url: `nats://127.0.0.1:${port}`,
    ...(monitoringPort !== undefined ? { monitoringPort } : {}),
  });
}
