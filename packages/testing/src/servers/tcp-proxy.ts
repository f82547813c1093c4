import net from 'node:net';

/** A loopback TCP proxy in front of a real server, which a test can stop and start to simulate an outage. */
export interface TcpProxy {
  readonly host: string;
  /** The proxy's port; it stays the same across stop() and start(). */
  readonly port: number;
  /** Client connections accepted since the proxy was created. */
  readonly acceptedConnections: number;
  /** Client connections currently open. */
  readonly openConnections: number;
  /** Stops listening and destroys every open connection: the upstream looks down (connection refused). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** As stop(); the proxy cannot be started again afterwards. */
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1 (a random port, or `port`) that pipes every connection to `target`. Useful
 * for "the upstream went away, then came back" tests against a server the test cannot restart itself.
 */
export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const clients = new Set<net.Socket>();
  let accepted = 0;
  let server: net.Server | null = null;
  let boundPort = port;

  const listen = async () => {
    const created = net.createServer((client) => {
      accepted += 1;
      clients.add(client);
      client.on('close', () => clients.delete(client));
      const upstream = net.connect({ host: target.host, port: target.port });
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      created.once('error', reject);
      created.listen(boundPort, '127.0.0.1', () => resolve());
    });
    boundPort = (created.address() as net.AddressInfo).port;
    server = created;
  };

  const stop = async () => {
    const current = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };

  await listen();
  return {
    host: '127.0.0.1',
    get port() {
      return boundPort;
    },
    get acceptedConnections() {
      return accepted;
    },
    get openConnections() {
      return clients.size;
    },
    stop,
    async start() {
      if (!server) await listen();
    },
    close: stop,
  };
}
