import { connect, createServer, type Server, type Socket } from 'node:net';

export interface FreezableProxy {
  /** `http://127.0.0.1:<port>`: the host behind the proxy. */
  readonly url: string;
  /**
   * Stops passing bytes both ways while keeping every socket open, and holds new connections unanswered: what a
   * browser sees of a frozen host process (SIGSTOP, a stuck event loop), where nothing closes and nothing comes.
   */
  freeze(): void;
  /** Passes what was held and everything after it again. */
  thaw(): void;
  /**
   * Closes every socket and refuses new connections until {@link restore}: what a browser sees of a host that
   * stopped (its process exited), without stopping the host the other tests share.
   */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** A TCP proxy in front of `target` (`http://127.0.0.1:<port>`) that can freeze: see {@link FreezableProxy}. */
export async function startFreezableProxy(target: string): Promise<FreezableProxy> {
  const upstream = new URL(target);
  let frozen = false;
  let cut = false;
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const pass = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      if (frozen) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
    from.on('close', () => (frozen ? held.push(() => to.destroy()) : to.destroy()));
    from.on('error', () => to.destroy());
  };
  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const open = () => {
      const origin = connect(Number(upstream.port), upstream.hostname);
      for (const socket of [client, origin]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      }
      pass(client, origin);
      pass(origin, client);
    };
    if (frozen) held.push(open);
    else open();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const action of held.splice(0)) action();
    },
    cut: () => {
      cut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore: () => {
      cut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
