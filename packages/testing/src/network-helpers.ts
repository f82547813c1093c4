import net, { type LookupFunction } from 'node:net';

/** A TCP server that accepts connections and never answers: the "hung upstream" of the conformance suite. */
export interface BlackHoleServer {
  readonly host: string;
  readonly port: number;
  /** Connections accepted so far. */
  readonly acceptedConnections: number;
  /** Connections accepted and not yet closed by the client. */
  readonly openConnections: number;
  /** Destroys every held socket and stops listening. */
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 (random port), accepts every connection, reads and discards whatever arrives and
 * never writes a byte. A TLS client waits for a ServerHello forever and an HTTP client for a status line,
 * so one server stands in for a hung TCP, TLS or HTTP upstream.
 */
export async function blackHoleServer(): Promise<BlackHoleServer> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer({ allowHalfOpen: false }, (socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    get acceptedConnections() {
      return accepted;
    },
    get openConnections() {
      return sockets.size;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port that was just bound and released, so connecting to it is refused (ECONNREFUSED). */
export async function refusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A loopback port free right now, for a server or child process the test starts (bound and released). */
export const freePort: () => Promise<number> = refusedPort;

/** True when a server can bind `port` now (nothing holds it): a stopped process released its port. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** True when something accepts TCP connections at host:port within `timeoutMs`. */
export function isPortOpen(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => done(false), timeoutMs);
    const done = (open: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** A DNS lookup that answers 127.0.0.1 for every host name: point a client's real host names at local servers. */
export const loopbackLookup: LookupFunction = (_hostname, options, callback) => {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};
