import { constants, generateKeyPairSync, privateDecrypt, randomBytes } from 'node:crypto';
import net from 'node:net';

/** What a fake MySQL 8 server saw during its logins. */
export interface MySqlCachingSha2Fake {
  readonly host: string;
  readonly port: number;
  /** Logins that asked for the server's RSA public key (caching_sha2_password full authentication). */
  readonly publicKeyRequests: number;
  /** Logins that completed with the right password. */
  readonly authenticatedLogins: number;
  /** COM_QUERY texts received after login. */
  readonly queries: readonly string[];
  close(): Promise<void>;
}

// Capability flags: LONG_PASSWORD, LONG_FLAG, CONNECT_WITH_DB, PROTOCOL_41, TRANSACTIONS,
// SECURE_CONNECTION, MULTI_RESULTS, PLUGIN_AUTH, PLUGIN_AUTH_LENENC_CLIENT_DATA. No SSL.
const capabilities = 0x1 | 0x4 | 0x8 | 0x200 | 0x2000 | 0x8000 | 0x20000 | 0x80000 | 0x200000;
const plugin = 'caching_sha2_password';

function packet(sequence: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUIntLE(payload.length, 0, 3);
  header[3] = sequence & 0xff;
  return Buffer.concat([header, payload]);
}

function greeting(scramble: Buffer): Buffer {
  const flags = Buffer.alloc(2);
  const upper = Buffer.alloc(2);
  flags.writeUInt16LE(capabilities & 0xffff);
  upper.writeUInt16LE(capabilities >>> 16);
  return Buffer.concat([
    Buffer.from([10]),
    Buffer.from('8.0.36-corekit-fake\0'),
    Buffer.from([1, 0, 0, 0]),
    scramble.subarray(0, 8),
    Buffer.from([0]),
    flags,
    Buffer.from([45, 2, 0]),
    upper,
    Buffer.from([21]),
    Buffer.alloc(10),
    scramble.subarray(8, 20),
    Buffer.from([0]),
    Buffer.from(`${plugin}\0`),
  ]);
}

const okPayload = Buffer.from([0x00, 0, 0, 2, 0, 0, 0]);

function errorPayload(code: number, state: string, message: string): Buffer {
  const head = Buffer.alloc(3);
  head[0] = 0xff;
  head.writeUInt16LE(code, 1);
  return Buffer.concat([head, Buffer.from(`#${state}${message}`)]);
}

/** Reads the user name and the plugin named in a HandshakeResponse41. */
function readHandshakeResponse(payload: Buffer): { user: string; plugin: string } {
  const flags = payload.readUInt32LE(0);
  let offset = 32;
  const userEnd = payload.indexOf(0, offset);
  const user = payload.subarray(offset, userEnd).toString();
  offset = userEnd + 1;
  const length = payload[offset];
  offset += 1 + length;
  if (flags & 0x8) offset = payload.indexOf(0, offset) + 1;
  const pluginEnd = payload.indexOf(0, offset);
  return {
    user,
    plugin:
      flags & 0x80000 ? payload.subarray(offset, pluginEnd < 0 ? payload.length : pluginEnd).toString() : '',
  };
}

/**
 * A MySQL 8 server stand-in that speaks just enough of the protocol to pin the client side of
 * caching_sha2_password full authentication on a plain connection: greeting, auth switch when the client
 * answered with another plugin, "perform full authentication", the RSA public-key exchange, OK or ERR, then
 * OK for every COM_QUERY and COM_PING. Built from the protocol documentation (Handshake v10, AuthMoreData).
 */
export async function startMySqlCachingSha2Fake(options: {
  user: string;
  password: string;
}): Promise<MySqlCachingSha2Fake> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' });
  const queries: string[] = [];
  const sockets = new Set<net.Socket>();
  let keyRequests = 0;
  let authenticated = 0;

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const scramble = Buffer.from(randomBytes(20).map((byte) => (byte % 94) + 33));
    let state: 'response' | 'switched' | 'full-auth' | 'key-sent' | 'command' = 'response';
    let user = '';
    let buffer = Buffer.alloc(0);
    const send = (sequence: number, payload: Buffer) => socket.write(packet(sequence, payload));
    const finishLogin = (sequence: number, password: string) => {
      if (user === options.user && password === options.password) {
        authenticated += 1;
        send(sequence, okPayload);
        state = 'command';
      } else {
        send(
          sequence,
          errorPayload(1045, '28000', `Access denied for user '${user}'@'localhost' (using password: YES)`),
        );
        socket.end();
      }
    };
    const handle = (sequence: number, payload: Buffer) => {
      const next = sequence + 1;
      switch (state) {
        case 'response': {
          const response = readHandshakeResponse(payload);
          user = response.user;
          if (response.plugin !== plugin) {
            state = 'switched';
            send(
              next,
              Buffer.concat([Buffer.from([0xfe]), Buffer.from(`${plugin}\0`), scramble, Buffer.from([0])]),
            );
          } else {
            state = 'full-auth';
            send(next, Buffer.from([0x01, 0x04]));
          }
          return;
        }
        case 'switched':
          state = 'full-auth';
          send(next, Buffer.from([0x01, 0x04]));
          return;
        case 'full-auth':
          if (payload.length === 1 && payload[0] === 0x02) {
            keyRequests += 1;
            state = 'key-sent';
            send(next, Buffer.concat([Buffer.from([0x01]), Buffer.from(publicPem)]));
          } else {
            // cleartext password (only acceptable over TLS, which this fake does not offer)
            finishLogin(next, payload.toString().replace(/\0$/, ''));
          }
          return;
        case 'key-sent': {
          const decrypted = privateDecrypt(
            { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
            payload,
          );
          const plain = Buffer.from(decrypted.map((byte, index) => byte ^ scramble[index % scramble.length]));
          finishLogin(next, plain.toString().replace(/\0$/, ''));
          return;
        }
        case 'command':
          if (payload[0] === 0x01) {
            socket.end();
          } else {
            if (payload[0] === 0x03) queries.push(payload.subarray(1).toString());
            send(1, okPayload);
          }
          return;
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 4) {
        const length = buffer.readUIntLE(0, 3);
        if (buffer.length < 4 + length) return;
        const sequence = buffer[3];
        const payload = buffer.subarray(4, 4 + length);
        buffer = buffer.subarray(4 + length);
        handle(sequence, payload);
      }
    });
    send(0, greeting(scramble));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    host: '127.0.0.1',
    port: (server.address() as net.AddressInfo).port,
    get publicKeyRequests() {
      return keyRequests;
    },
    get authenticatedLogins() {
      return authenticated;
    },
    queries,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
