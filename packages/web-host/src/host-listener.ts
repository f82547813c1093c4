import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '@corekit/abstractions';
import type { WorkerHost } from '@corekit/worker-host';
import { listenError } from './listen-error';
import { webHostFailurePhases } from './start-failure-gate';
import { webHostEventIds } from './web-host-event-ids';

/** Where a listening host answers. */
export interface ListenAddress {
  readonly port: number;
  readonly url: string;
}

/** The URL a client uses for a bind address: `localhost` for the wildcard addresses, IPv6 in brackets. */
export function listenUrl(port: number, bindAddress: string | undefined): string {
  const shownHost =
    !bindAddress || bindAddress === '0.0.0.0' || bindAddress === '::' ? 'localhost' : bindAddress;
  return `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
}

/** Creates an HTTP server and listens; a port or address that cannot be bound rejects with listenError's CoreError. */
export async function openHttpServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => void,
  port: number,
  bindAddress: string | undefined,
): Promise<{ server: Server; address: ListenAddress }> {
  const server = createServer(handler);
  server.on('upgrade', upgrade);
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => reject(listenError(error, port, bindAddress));
    server.once('error', fail);
    server.listen(port, bindAddress, () => {
      server.off('error', fail);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  return { server, address: { port: bound.port, url: listenUrl(bound.port, bindAddress) } };
}

/** What the listener needs from the host. */
export interface HostListenerParts {
  readonly workerHost: WorkerHost;
  readonly logger: Logger;
  /** The port to listen on; may throw (an invalid `PORT`): a start failure no restart cures. */
  port(): number;
  readonly bindAddress: string | undefined;
  readonly handler: (request: IncomingMessage, response: ServerResponse) => void;
  readonly upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** The transports served, for the log line. */
  readonly transports: readonly string[];
  /** Runs once the engine started (or failed to, when that does not end the process). */
  afterStart(): void;
}

/**
 * Listen, then start: checks the configuration (an unknown key ends the process before a port opens, when a
 * failed start ends it at all), listens, then starts the engine, so `/health/live` and `/health/startup` answer
 * during startup. The server is closed by the host's shutdown participant, after `engine.stop()`.
 */
export class HostListener {
  private listening: Server | undefined;
  private address: ListenAddress | undefined;

  constructor(private readonly parts: HostListenerParts) {}

  /** The HTTP server once `listen()` bound it. */
  get server(): Server | undefined {
    return this.listening;
  }

  /** Listens and starts the engine once; later calls answer the same address. */
  async listen(): Promise<ListenAddress> {
    if (this.address) return this.address;
    const { workerHost } = this.parts;
    const port = this.parts.port();
    if (workerHost.endsOnStartFailure) await workerHost.checkConfiguration();
    let opened: { server: Server; address: ListenAddress };
    try {
      opened = await openHttpServer(this.parts.handler, this.parts.upgrade, port, this.parts.bindAddress);
    } catch (error) {
      // The engine records it (Failed, not restartable); a host that owns the process frees its ports and exits 1.
      await workerHost.recordStartFailure(webHostFailurePhases.listen, error, { restartable: false });
      throw error;
    }
    this.listening = opened.server;
    const address = (this.address = opened.address);
    this.parts.logger.log({
      level: 'info',
      eventId: webHostEventIds.listening,
      category: 'web-host',
      message: `Web host listening on ${address.url} (health: /health/ready, surfaces: /engine, reference: /scalar)`,
      port: address.port,
      transports: this.parts.transports,
    });
    await this.startEngine();
    this.parts.afterStart();
    return address;
  }

  private async startEngine(): Promise<void> {
    try {
      await this.parts.workerHost.start();
    } catch (error) {
      // The worker host logged it; when a failed start ends the process, it has already closed the server and
      // every transport port and reported the failure. Otherwise (the `exitOnStartFailure: false` opt-in, or
      // a host that does not own the process) the health routes show it: liveness 503, restartAvailableAtUtc.
      if (this.parts.workerHost.endsOnStartFailure) throw error;
    }
  }
}
