import net from 'node:net';
import { createLineReader, readBytes } from './socket-reader';

async function serverWriting(payload: string) {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  const socket = net.connect({ host: '127.0.0.1', port });
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('socket readers', () => {
  it('hands the bytes a closed reader left behind to the next reader on the same socket', async () => {
    const { socket, close } = await serverWriting('INFO {}\r\nPONG\r\n');
    const signal = new AbortController().signal;
    try {
      const first = createLineReader(socket, signal);
      expect(await first.readLine()).toBe('INFO {}');
      first.close();
      const second = createLineReader(socket, signal);
      expect(await second.readLine()).toBe('PONG');
      second.close();
    } finally {
      socket.destroy();
      await close();
    }
  });

  it('lets readBytes be called repeatedly on one socket', async () => {
    const { socket, close } = await serverWriting('abcdef');
    const signal = new AbortController().signal;
    try {
      expect((await readBytes(socket, 2, signal)).toString()).toBe('ab');
      expect((await readBytes(socket, 4, signal)).toString()).toBe('cdef');
    } finally {
      socket.destroy();
      await close();
    }
  });
});
