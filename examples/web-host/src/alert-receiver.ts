import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** One notification the sample's receiver got. */
export interface ReceivedAlert {
  readonly receivedAtUtc: string;
  readonly webhookId: string;
  readonly status: string;
  readonly severity: string;
  readonly title: string;
  readonly incidentId: string;
  readonly revision: number;
  readonly alerts: ReadonlyArray<{ alertId: string; severity: string; status: string; description: string }>;
}

const maxKept = 50;

/**
 * A Standard Webhooks receiver the sample serves on its own upstream server, so alerts have somewhere to arrive
 * on a fresh machine: it verifies `webhook-signature` (HMAC-SHA256 of `id.timestamp.body` with the `whsec_` key,
 * constant-time compare, five-minute timestamp tolerance), answers 204 (401 for a bad signature) and keeps the
 * last 50 notifications in memory for `GET /api/demo/alert-receiver`. A stand-in for your chat tool or pager.
 */
export class AlertReceiver {
  readonly received: ReceivedAlert[] = [];

  constructor(
    private readonly secret: string,
    private readonly onReceived: (alert: ReceivedAlert) => void,
  ) {}

  verify(id: string, timestamp: string, body: Buffer, signatures: string): boolean {
    if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
    const key = Buffer.from(this.secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
    return signatures.split(' ').some((candidate) => {
      const given = Buffer.from(candidate.startsWith('v1,') ? candidate.slice(3) : '', 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  }

  handle = (request: IncomingMessage, response: ServerResponse): void => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const header = (name: string) => String(request.headers[name] ?? '');
      if (
        request.method !== 'POST' ||
        !this.verify(header('webhook-id'), header('webhook-timestamp'), body, header('webhook-signature'))
      ) {
        response.writeHead(401, { connection: 'close' }).end();
        return;
      }
      const notification = JSON.parse(body.toString('utf8')) as Omit<
        ReceivedAlert,
        'receivedAtUtc' | 'webhookId'
      >;
      const alert: ReceivedAlert = {
        receivedAtUtc: new Date().toISOString(),
        webhookId: header('webhook-id'),
        status: notification.status,
        severity: notification.severity,
        title: notification.title,
        incidentId: notification.incidentId,
        revision: notification.revision,
        alerts: notification.alerts.map(({ alertId, severity, status, description }) => ({
          alertId,
          severity,
          status,
          description,
        })),
      };
      this.received.unshift(alert);
      this.received.splice(maxKept);
      this.onReceived(alert);
      response.writeHead(204, { connection: 'close' }).end();
    });
  };
}
