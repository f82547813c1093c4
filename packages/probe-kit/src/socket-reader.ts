import type { Duplex } from 'node:stream';
import { CoreError } from '@corekit/abstractions';
import { abortError } from './abortable';

/** Longest line or frame a reader buffers before failing (protects against a runaway upstream). */
const maximumBufferedBytes = 1024 * 1024;

export interface LineReader {
  /** The next line without its CRLF or LF; rejects on abort, close, error or a line over 1 MiB. */
  readLine(): Promise<string>;
  /**
   * Detaches the reader: pending reads reject, unread bytes are pushed back into the socket, which is
   * paused and left open (so it can be upgraded to TLS). Destroy the socket yourself in `finally`.
   */
  close(): void;
}

export interface ByteReader {
  /** Exactly `length` bytes; rejects on abort, close or error. */
  read(length: number): Promise<Buffer>;
  /** As LineReader.close. */
  close(): void;
}

type Want = { kind: 'line' } | { kind: 'bytes'; length: number };

interface Pending {
  want: Want;
  resolve(value: never): void;
  reject(error: unknown): void;
}

function createSocketReader(socket: Duplex, signal: AbortSignal): LineReader & ByteReader {
  let buffer: Buffer = Buffer.alloc(0);
  let pending: Pending | null = null;
  let failure: unknown = null;
  let closed = false;

  const take = (want: Want): { value: string | Buffer } | null => {
    if (want.kind === 'bytes') {
      if (buffer.length < want.length) return null;
      const value = buffer.subarray(0, want.length);
      buffer = buffer.subarray(want.length);
      return { value: Buffer.from(value) };
    }
    const newline = buffer.indexOf(0x0a);
    if (newline < 0) return null;
    const end = newline > 0 && buffer[newline - 1] === 0x0d ? newline - 1 : newline;
    const value = buffer.subarray(0, end).toString('utf8');
    buffer = buffer.subarray(newline + 1);
    return { value };
  };

  const settle = () => {
    if (!pending) return;
    const current = pending;
    const taken = take(current.want);
    if (taken) {
      pending = null;
      current.resolve(taken.value as never);
    } else if (failure) {
      pending = null;
      current.reject(failure);
    }
  };

  const fail = (error: unknown) => {
    if (!failure) failure = error;
    settle();
  };

  const onData = (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    if (buffer.length > maximumBufferedBytes) {
      fail(
        new CoreError(
          'RESPONSE_TOO_LARGE',
          'The upstream sent more than 1 MiB without the expected frame or line end; check that the port speaks the expected protocol.',
        ),
      );
      socket.destroy();
      return;
    }
    settle();
  };
  const onError = (error: Error) => fail(error);
  const onClose = () =>
    fail(
      Object.assign(new Error('The upstream closed the connection before answering.'), {
        code: 'ECONNRESET',
      }),
    );
  const onAbort = () => {
    fail(abortError(signal));
    socket.destroy();
  };

  socket.on('data', onData);
  socket.on('error', onError);
  socket.on('end', onClose);
  socket.on('close', onClose);
  // a previous reader's close() paused the socket; a 'data' listener alone does not restart the flow
  socket.resume();
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });

  const read = (want: Want): Promise<never> => {
    if (closed) return Promise.reject(new CoreError('READER_CLOSED', 'The reader was closed.'));
    if (pending)
      return Promise.reject(new CoreError('READ_IN_PROGRESS', 'Only one read at a time is allowed.'));
    return new Promise((resolve, reject) => {
      pending = { want, resolve, reject };
      settle();
    });
  };

  return {
    readLine: () => read({ kind: 'line' }) as Promise<string>,
    read: (length: number) => read({ kind: 'bytes', length }) as Promise<Buffer>,
    close() {
      if (closed) return;
      closed = true;
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('end', onClose);
      socket.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
      socket.pause();
      if (buffer.length > 0 && !socket.destroyed) socket.unshift(buffer);
      buffer = Buffer.alloc(0);
      if (pending) {
        const current = pending;
        pending = null;
        current.reject(new CoreError('READER_CLOSED', 'The reader was closed.'));
      }
    },
  };
}

/** Reads CRLF- or LF-terminated lines (Redis, Memcached, NATS...). */
export function createLineReader(socket: Duplex, signal: AbortSignal): LineReader {
  return createSocketReader(socket, signal);
}

/** Reads exact byte counts, for binary framed protocols (MQTT, Kafka...). */
export function createByteReader(socket: Duplex, signal: AbortSignal): ByteReader {
  return createSocketReader(socket, signal);
}

/** Reads exactly `length` bytes once and detaches (unread bytes stay in the socket for the next reader). */
export async function readBytes(socket: Duplex, length: number, signal: AbortSignal): Promise<Buffer> {
  const reader = createByteReader(socket, signal);
  try {
    return await reader.read(length);
  } finally {
    reader.close();
  }
}
