import type { AddressInfo } from 'node:net';
import type { RecordedHttpRequest } from '@corekit/testing/http-fake-server';
import type { NotifierService } from '@corekit/testing/notifier-service';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP relay on 127.0.0.1 (smtp-server, plain, AUTH required with `user` / `password`) behind the
 * notifier service interface the conformance suite drives: `failNext(status)` refuses the next message at the end
 * of DATA with a 451 reply for a 5xx or 429 (a transient refusal: try later) and a 550 for any other status (a
 * permanent one); `hang()` holds DATA unanswered. Each message is recorded as a request: method `DATA`, path the
 * recipient, headers the message's (lower-cased), body the raw message.
 */
export async function startSmtpNotifierService(auth: {
  user: string;
  password: string;
}): Promise<NotifierService> {
  const requests: RecordedHttpRequest[] = [];
  const accepted: RecordedHttpRequest[] = [];
  const faults: number[] = [];
  const held: Array<() => void> = [];
  let hanging = false;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    closeTimeout: 1000,
    onAuth(authentication, _session, callback) {
      if (authentication.username === auth.user && authentication.password === auth.password)
        return callback(null, { user: authentication.username });
      return callback(Object.assign(new Error('Invalid credentials'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const request = recordOf(raw, session.envelope.rcptTo.map((item) => item.address).join(','));
        requests.push(request);
        if (hanging) await new Promise<void>((resolve) => held.push(resolve));
        const fault = faults.shift();
        if (fault !== undefined) {
          const code = fault >= 500 || fault === 429 ? 451 : 550;
          return callback(Object.assign(new Error(`injected fault ${code}`), { responseCode: code }));
        }
        accepted.push(request);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const release = () => {
    hanging = false;
    for (const resume of held.splice(0)) resume();
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    requests,
    accepted,
    failNext(status, times = 1) {
      for (let index = 0; index < times; index++) faults.push(status);
    },
    hang() {
      hanging = true;
    },
    answerAgain: release,
    async close() {
      release();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The answer code an injected fault comes back as (see `startSmtpNotifierService`). */
export const smtpReplyOf = (status: number) => (status >= 500 || status === 429 ? 451 : 550);

function recordOf(raw: Buffer, recipients: string): RecordedHttpRequest {
  const text = raw.toString();
  const head = text.split('\r\n\r\n')[0]!.replace(/\r\n\s+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { method: 'DATA', path: recipients, query: {}, headers, body: text, bytes: raw };
}
