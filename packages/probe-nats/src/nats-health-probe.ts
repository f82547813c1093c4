import net from 'node:net';
import tls from 'node:tls';
import { CoreError } from '@corekit/abstractions';
import {
  abortError,
  connectTcp,
  createLineReader,
  formatHostPort,
  healthy,
  tlsHandshakeFailure,
  unhealthy,
  type ProbeContext,
  type ProbeEntry,
  type ProbeDefinition,
} from '@corekit/probe-kit';
import { natsHealthEntryShape, validateNatsHealthEntry } from './nats-health-options';

type NatsEntry = ProbeEntry<typeof natsHealthEntryShape>;

/** The fields of the server's INFO line the probe reads. */
interface ServerInfo {
  readonly server_name?: string;
  readonly version?: string;
  readonly auth_required?: boolean;
  readonly tls_required?: boolean;
  readonly tls_available?: boolean;
}

/** Lines the probe reads after CONNECT before giving up on a PONG (server PINGs, INFO updates). */
const maximumLinesBeforePong = 16;

function parseInfo(line: string, where: string): ServerInfo {
  if (!line.startsWith('INFO ')) {
    throw new CoreError(
      'PROTOCOL_ERROR',
      `${where} did not start with a NATS INFO line; check that Host and Port point at a NATS client port.`,
    );
  }
  try {
    const info: unknown = JSON.parse(line.slice(5));
    if (info && typeof info === 'object' && !Array.isArray(info)) return info as ServerInfo;
  } catch {
    // reported below
  }
  throw new CoreError(
    'PROTOCOL_ERROR',
    `${where} sent an INFO line whose payload is not a JSON object; check that Host and Port point at a NATS server.`,
  );
}

/** Starts TLS on an open connection (NATS upgrades after the clear-text INFO), verifying the certificate. */
function upgradeToTls(
  socket: net.Socket,
  host: string,
  servername: string | undefined,
  signal: AbortSignal,
): Promise<tls.TLSSocket> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const secure = tls.connect({ socket, host, servername, rejectUnauthorized: true });
    const onAbort = () => {
      secure.destroy();
      reject(abortError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    secure.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      secure.destroy();
      reject(error);
    });
    secure.once('secureConnect', () => {
      signal.removeEventListener('abort', onAbort);
      // keep a listener so a late error never becomes an uncaught exception; readers add their own
      secure.on('error', () => undefined);
      resolve(secure);
    });
  });
}

function errorReason(line: string): string {
  const text = line.slice(4).trim();
  return text.replace(/^'(.*)'$/, '$1') || 'no reason given';
}

function serverError(line: string, where: string, entry: NatsEntry, context: ProbeContext, info: ServerInfo) {
  const reason = errorReason(line);
  if (/authori[sz]ation|authentication|user|password|token/i.test(reason)) {
    const configured = entry.Token
      ? `${context.entryPath}:Token`
      : entry.Username
        ? `${context.entryPath}:Username and :Password`
        : null;
    const hint = configured
      ? `Check ${configured}.`
      : `The server requires authentication${info.auth_required ? ' (its INFO says auth_required)' : ''}: set ${context.entryPath}:Token or :Username and :Password.`;
    return unhealthy(
      'AUTHENTICATION_FAILED',
      `The NATS server at ${where} refused the connection: '${reason}'. ${hint}`,
    );
  }
  return unhealthy('SERVER_ERROR', `The NATS server at ${where} answered -ERR '${reason}'.`);
}

/**
 * The NATS probe, speaking the client protocol itself: read the server's INFO line, upgrade to TLS when
 * configured or required, send CONNECT (verbose and pedantic off, name, credentials) and PING, and
 * require PONG. An `-ERR` answer is Unhealthy with the server's reason.
 */
export const natsHealthProbe: ProbeDefinition<typeof natsHealthEntryShape> = {
  kind: 'Nats',
  entryShape: natsHealthEntryShape,
  validateEntry: validateNatsHealthEntry,
  describeTarget: (entry) => `nats://${formatHostPort(entry.Host!, entry.Port)}`,
  async check(entry, context) {
    const { signal } = context;
    const host = entry.Host!;
    const where = formatHostPort(host, entry.Port);
    const plain = await connectTcp({ host, port: entry.Port, signal });
    let socket: net.Socket = plain;
    try {
      const greeting = createLineReader(plain, signal);
      const firstLine = await greeting.readLine();
      // a server at its connection limit may refuse with -ERR before (or instead of) INFO
      if (firstLine.startsWith('-ERR')) return serverError(firstLine, where, entry, context, {});
      const info = parseInfo(firstLine, where);
      greeting.close();
      if (entry.UseTls && !info.tls_required && !info.tls_available) {
        return unhealthy(
          'TLS_NOT_OFFERED',
          `${context.entryPath}:UseTls is true, but the NATS server at ${where} offers no TLS (its INFO has neither tls_required nor tls_available). Enable TLS on the server or set UseTls to false.`,
        );
      }
      const useTls = entry.UseTls || info.tls_required === true;
      if (useTls) {
        try {
          socket = await upgradeToTls(
            plain,
            host,
            entry.TlsServerName ?? (net.isIP(host) ? undefined : host),
            signal,
          );
        } catch (error) {
          if ((error as { code?: unknown }).code === 'ABORTED') throw error;
          return tlsHandshakeFailure(error, where, `${context.entryPath}:TlsServerName`);
        }
      }
      const reader = createLineReader(socket, signal);
      const connect = {
        verbose: false,
        pedantic: false,
        tls_required: useTls,
        name: entry.ClientName ?? `corekit-probe-${entry.Id}`,
        lang: 'node',
        protocol: 1,
        ...(entry.Token ? { auth_token: entry.Token } : {}),
        ...(entry.Username ? { user: entry.Username, pass: entry.Password ?? '' } : {}),
      };
      socket.write(`CONNECT ${JSON.stringify(connect)}\r\nPING\r\n`);
      for (let lines = 0; lines < maximumLinesBeforePong; lines++) {
        const line = await reader.readLine();
        if (line === 'PONG') {
          const data = {
            serverName: info.server_name ?? null,
            serverVersion: info.version ?? null,
            tls: useTls,
          };
          return healthy(
            `NATS${info.version ? ` ${info.version}` : ''} at ${where} answered PONG${useTls ? ' over TLS' : ''}`,
            data,
          );
        }
        if (line.startsWith('-ERR')) return serverError(line, where, entry, context, info);
        if (line === 'PING') socket.write('PONG\r\n');
        else if (line !== '+OK' && !line.startsWith('INFO ')) {
          throw new CoreError(
            'PROTOCOL_ERROR',
            `${where} answered PING with an unexpected line instead of PONG; check that Host and Port point at a NATS server.`,
          );
        }
      }
      throw new CoreError(
        'PROTOCOL_ERROR',
        `${where} sent ${maximumLinesBeforePong} lines without answering PING with PONG.`,
      );
    } finally {
      socket.destroy();
      plain.destroy();
    }
  },
};
