import net from 'node:net';
import { connectTcp } from './connect-tcp';
import { createByteReader, createLineReader, readBytes } from './socket-reader';

interface Upstream {
  port: number;
  sockets: Set<net.Socket>;
  close(): Promise<void>;
}

/** A loopback server that runs `onConnection` for each client and tracks open sockets. */
async function upstream(onConnection: (socket: net.Socket) => void = () => undefined): Promise<Upstream> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    sockets,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 100 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

describe('connectTcp and the socket readers', () => {
  it('rejects a refused port with ECONNREFUSED', async () => {
    const closed = await upstream();
    const port = closed.port;
    await closed.close();
    await expect(
      connectTcp({ host: '127.0.0.1', port, signal: new AbortController().signal }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('reads CRLF and LF lines split across chunks, then rejects once the upstream closes', async () => {
    const server = await upstream((socket) => {
      socket.write('+PO');
      setTimeout(() => socket.write('NG\r\nsecond\nthi'), 5);
      setTimeout(() => socket.end('rd\r\n'), 10);
    });
    const signal = new AbortController().signal;
    const socket = await connectTcp({ host: '127.0.0.1', port: server.port, signal });
    try {
      const reader = createLineReader(socket, signal);
      expect(await reader.readLine()).toBe('+PONG');
      expect(await reader.readLine()).toBe('second');
      expect(await reader.readLine()).toBe('third');
      await expect(reader.readLine()).rejects.toMatchObject({ code: 'ECONNRESET' });
    } finally {
      socket.destroy();
      await server.close();
    }
  });

  it('destroys the socket and rejects a pending read with ABORTED when the signal aborts', async () => {
    const server = await upstream();
    const controller = new AbortController();
    const socket = await connectTcp({ host: '127.0.0.1', port: server.port, signal: controller.signal });
    const pending = createLineReader(socket, controller.signal).readLine();
    await until(() => server.sockets.size === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
    expect(socket.destroyed).toBe(true);
    await until(() => server.sockets.size === 0);
    await server.close();
  });

  it('reads exact byte counts and leaves unread bytes for the next reader', async () => {
    const server = await upstream((socket) =>
      socket.write(Buffer.from([0x20, 0x02, 0x00, 0x00, 0xd0, 0x00])),
    );
    const signal = new AbortController().signal;
    const socket = await connectTcp({ host: '127.0.0.1', port: server.port, signal });
    try {
      expect([...(await readBytes(socket, 4, signal))]).toEqual([0x20, 0x02, 0x00, 0x00]);
      const reader = createByteReader(socket, signal);
      expect([...(await reader.read(2))]).toEqual([0xd0, 0x00]);
      reader.close();
    } finally {
      socket.destroy();
      await server.close();
    }
  });

  it('fails a line longer than 1 MiB instead of buffering without bound', async () => {
    const server = await upstream((socket) => socket.write(Buffer.alloc(1024 * 1024 + 10, 0x61)));
    const signal = new AbortController().signal;
    const socket = await connectTcp({ host: '127.0.0.1', port: server.port, signal });
    try {
      await expect(createLineReader(socket, signal).readLine()).rejects.toMatchObject({
        code: 'RESPONSE_TOO_LARGE',
      });
    } finally {
      socket.destroy();
      await server.close();
    }
  });
});
