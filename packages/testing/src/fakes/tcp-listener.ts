import type net from 'node:net';

/** Starts listening (port 0: any free one) and answers the port; a listen error rejects. */
export async function listenOn(server: net.Server, host: string, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as net.AddressInfo).port;
}

/**
 * Closes a fake server: stops listening first so no connection slips in while the open ones are
 * destroyed, waits until each open socket closed, then until the server closed.
 */
export async function closeServerAndSockets(
  server: net.Server,
  sockets: Iterable<net.Socket>,
): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  await Promise.all(
    [...sockets].map((socket) => new Promise((resolve) => socket.once('close', resolve).destroy())),
  );
  await closed;
}
