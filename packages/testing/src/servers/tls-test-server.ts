import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

/** A PEM key and self-signed certificate. */
export interface SelfSignedCertificate {
  readonly key: string;
  readonly cert: string;
}

/**
 * Generates a throw-away P-256 key and a self-signed certificate valid one day for `commonName` (also its
 * DNS subject alternative name), with the `openssl` command line tool.
 */
export function createSelfSignedCertificate(commonName = 'localhost'): SelfSignedCertificate {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'corekit-tls-'));
  try {
    const keyPath = path.join(directory, 'key.pem');
    const certPath = path.join(directory, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyPath,
        '-out',
        certPath,
        '-days',
        '1',
        '-subj',
        `/CN=${commonName}`,
        '-addext',
        `subjectAltName=DNS:${commonName}`,
      ],
      { stdio: 'pipe' },
    );
    return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8') };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** A local TLS server with a self-signed certificate that records what clients put on the wire. */
export interface TlsTestServer {
  readonly host: string;
  readonly port: number;
  readonly certificate: SelfSignedCertificate;
  /** The SNI server name of every ClientHello that carried one, in arrival order. */
  readonly serverNames: readonly string[];
  /** Handshakes that completed. */
  readonly completedHandshakes: number;
  /** Codes (or messages) of handshakes that failed, such as the client rejecting the certificate. */
  readonly handshakeErrors: readonly string[];
  /** Connections accepted so far. */
  readonly acceptedConnections: number;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

export interface TlsTestServerOptions {
  /** Common name of the generated certificate (default `localhost`). */
  readonly commonName?: string;
  /**
   * Written in clear text as soon as a client connects, before the TLS handshake: for protocols that
   * upgrade in band, such as NATS (an INFO line with `tls_required`).
   */
  readonly plainGreeting?: string;
  /** Called with every established TLS connection, to speak the protocol over it. Default: silence. */
  readonly onSecureConnection?: (socket: tls.TLSSocket) => void;
}

/** Starts a TLS server on 127.0.0.1 (random port). The handshake starts on the client's first byte. */
export async function startTlsTestServer(options: TlsTestServerOptions = {}): Promise<TlsTestServer> {
  const certificate = createSelfSignedCertificate(options.commonName ?? 'localhost');
  const context = tls.createSecureContext({ key: certificate.key, cert: certificate.cert });
  const serverNames: string[] = [];
  const handshakeErrors: string[] = [];
  const sockets = new Set<net.Socket>();
  let completed = 0;
  let accepted = 0;

  const server = net.createServer((raw) => {
    accepted += 1;
    sockets.add(raw);
    raw.on('close', () => sockets.delete(raw));
    raw.on('error', () => undefined);
    if (options.plainGreeting !== undefined) raw.write(options.plainGreeting);
    const secure = new tls.TLSSocket(raw, {
      isServer: true,
      secureContext: context,
      SNICallback: (name, callback) => {
        serverNames.push(name);
        callback(null, context);
      },
    });
    sockets.add(secure);
    let established = false;
    secure.on('close', () => sockets.delete(secure));
    secure.on('error', (error: Error & { code?: string }) => {
      if (!established) handshakeErrors.push(error.code ?? error.message);
    });
    secure.once('secure', () => {
      established = true;
      completed += 1;
      options.onSecureConnection?.(secure);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    certificate,
    serverNames,
    handshakeErrors,
    get completedHandshakes() {
      return completed;
    },
    get acceptedConnections() {
      return accepted;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
