import type { RecordedHttpRequest } from '@corekit/testing/http-fake-server';
import { notifierConformanceSuite, sampleNotification } from '@corekit/testing/notifier-conformance';
import { startNotifierService } from '@corekit/testing/notifier-service';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import type { AlertNotification } from '@corekit/notifier-kit';
import { addEmailNotifier, renderAlertEmail } from './index';
import { smtpReplyOf, startSmtpNotifierService } from './test-support/smtp-notifier-service';

const smtpPassword = 'smtpConformancePassword0123456789';
const sendGridKey = 'SG.conformanceKey0123456789.abcdefghijklmnopqrstuvwxyz';
const mailgunKey = 'key-mailgunConformance0123456789abcdef';
const mailgunDomain = 'mg.core.example';
const from = { FromAddress: 'alerts@core.example', FromName: 'Core Alerts', To: 'oncall@ops.example' };

/** The text of a raw message with quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) =>
  raw
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** What both providers' messages must say: status, service and severity in the subject, every alert in the text and HTML. */
function expectAlertEmail(subject: string, text: string, html: string, notification: AlertNotification) {
  expect(subject).toContain(`[${notification.status.toUpperCase()}]`);
  expect(subject).toContain(notification.service);
  expect(subject).toContain(notification.severity);
  for (const alert of notification.alerts) {
    const state = alert.status === 'resolved' ? 'resolved' : alert.severity;
    expect(text).toContain(`${state} ${alert.ruleId} ${alert.dependencyId}: ${alert.description}`);
    expect(html).toContain(`<td>${state}</td><td>${alert.ruleId} ${alert.dependencyId}</td>`);
    expect(html).toContain(alert.description);
  }
}

notifierConformanceSuite({
  kind: 'Email (SMTP)',
  add: addEmailNotifier as never,
  startService: () => startSmtpNotifierService({ user: 'relay-user', password: smtpPassword }),
  target: (url) => {
    const address = new URL(url);
    return {
      Provider: 'Smtp',
      ...from,
      Smtp: {
        Host: address.hostname,
        Port: Number(address.port),
        UserName: 'relay-user',
        Password: smtpPassword,
      },
    };
  },
  secret: smtpPassword,
  faults: { responseCode: smtpReplyOf, retryAfter: false },
  verify: (request, notification) => {
    expect(request.path).toBe('oncall@ops.example');
    expect(request.headers.from).toBe('Core Alerts <alerts@core.example>');
    expect(request.headers['message-id']).toBe(`<${renderAlertEmail(notification).messageId}@core.example>`);
    expect(request.headers['x-core-incident-id']).toBe(notification.incidentId);
    expect(request.headers['content-type']).toMatch(/^multipart\/alternative/);
    const body = decoded(request.body);
    expect(body).toContain('Content-Type: text/plain');
    expect(body).toContain('Content-Type: text/html');
    expectAlertEmail(String(request.headers.subject), body, body, notification);
  },
});

/**
 * Answers as SendGrid's v3 mail send does: 401 without `Authorization: Bearer <key>`, 400 for a body without
 * personalizations[].to, from.email, subject or content, 202 with `X-Message-Id` otherwise.
 */
function sendGridAnswer(request: RecordedHttpRequest) {
  if (request.method !== 'POST' || request.path !== '/v3/mail/send')
    return { status: 404, body: { errors: [{ message: 'not found' }] } };
  if (request.headers.authorization !== `Bearer ${sendGridKey}`)
    return { status: 401, body: { errors: [{ message: 'The provided authorization grant is invalid' }] } };
  const body = JSON.parse(request.body) as Record<string, any>;
  const complete =
    body.personalizations?.[0]?.to?.[0]?.email && body.from?.email && body.subject && body.content?.length;
  if (!complete) return { status: 400, body: { errors: [{ message: 'Bad Request' }] } };
  return { status: 202, headers: { 'X-Message-Id': `Fake${request.bytes.length}Id` } };
}

notifierConformanceSuite({
  kind: 'Email (SendGrid)',
  add: addEmailNotifier as never,
  startService: () => startNotifierService(sendGridAnswer),
  target: (url) => ({ Provider: 'SendGrid', ...from, SendGrid: { BaseUrl: url, ApiKey: sendGridKey } }),
  secret: sendGridKey,
  verify: (request, notification) => {
    const body = JSON.parse(request.body) as {
      personalizations: Array<{ to: Array<{ email: string }> }>;
      from: { email: string; name: string };
      subject: string;
      content: Array<{ type: string; value: string }>;
      custom_args: Record<string, string>;
    };
    expect(body.personalizations[0]!.to).toEqual([{ email: 'oncall@ops.example' }]);
    expect(body.from).toEqual({ email: 'alerts@core.example', name: 'Core Alerts' });
    expect(body.custom_args).toEqual({
      core_incident_id: notification.incidentId,
      core_notification_id: notification.notificationId,
    });
    const content = (type: string) => body.content.find((part) => part.type === type)!.value;
    expectAlertEmail(body.subject, content('text/plain'), content('text/html'), notification);
  },
});

/** The multipart fields of a recorded request (repeated fields keep every value; text parts only). */
function formFields(request: RecordedHttpRequest): Record<string, string[]> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(String(request.headers['content-type']));
  const fields: Record<string, string[]> = {};
  if (!boundary) return fields;
  for (const part of request.body.split(`--${boundary[1] ?? boundary[2]}`)) {
    const [head, ...rest] = part.split('\r\n\r\n');
    const name = /name="([^"]+)"/.exec(head ?? '')?.[1];
    if (name) (fields[name] ??= []).push(rest.join('\r\n\r\n').replace(/\r\n$/, ''));
  }
  return fields;
}

/**
 * Answers as Mailgun's messages API does: 401 `Forbidden` without basic auth `api:<key>`, 400 without from, to,
 * subject and text or html, 200 `{ id: "<...@domain>", message: "Queued. Thank you." }` otherwise.
 */
function mailgunAnswer(request: RecordedHttpRequest) {
  if (request.method !== 'POST' || request.path !== `/v3/${mailgunDomain}/messages`)
    return { status: 404, body: { message: 'not found' } };
  const expected = `Basic ${Buffer.from(`api:${mailgunKey}`).toString('base64')}`;
  if (request.headers.authorization !== expected) return { status: 401, body: 'Forbidden' };
  const fields = formFields(request);
  if (!fields.from || !fields.to || !fields.subject || !(fields.text || fields.html))
    return { status: 400, body: { message: "'from' parameter is missing" } };
  return {
    status: 200,
    body: { id: `<20261201.${request.bytes.length}@${mailgunDomain}>`, message: 'Queued. Thank you.' },
  };
}

notifierConformanceSuite({
  kind: 'Email (Mailgun)',
  add: addEmailNotifier as never,
  startService: () => startNotifierService(mailgunAnswer),
  target: (url) => ({
    Provider: 'Mailgun',
    ...from,
    Mailgun: { BaseUrl: url, DomainName: mailgunDomain, ApiKey: mailgunKey },
  }),
  secret: mailgunKey,
  // mailgun.js does not report the answer's headers: a Retry-After is not seen (the pack's backoff applies).
  faults: { responseCode: (status) => status, retryAfter: false },
  verify: (request, notification) => {
    const fields = formFields(request);
    expect(fields.to).toEqual(['oncall@ops.example']);
    expect(fields.from).toEqual(['"Core Alerts" <alerts@core.example>']);
    expect(fields['h:X-Core-Incident-Id']).toEqual([notification.incidentId]);
    expect(fields['v:core_notification_id']).toEqual([notification.notificationId]);
    expectAlertEmail(fields.subject![0]!, fields.text![0]!, fields.html![0]!, notification);
  },
});

describe('email notifier', () => {
  it('renders the subject with status, service and severity, and escapes what it puts in HTML', () => {
    const notification = sampleNotification('resolved');
    const email = renderAlertEmail({
      ...notification,
      alerts: [{ ...notification.alerts[0]!, description: 'answered <b>503</b> & "closed"' }],
    });
    expect(email.subject).toBe('[RESOLVED] orders-service: 1 alert (unhealthy)');
    expect(email.text).toContain('- resolved dependency inventory-api: answered <b>503</b> & "closed"');
    expect(email.text).toContain('Started 2026-12-01 10:00:00 UTC, resolved 2026-12-01 10:07:00 UTC.');
    expect(email.html).toContain('answered &#60;b&#62;503&#60;/b&#62; &#38; &#34;closed&#34;');
    expect(email.messageId).toBe(renderAlertEmail(notification).messageId);
    expect(email.messageId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('refuses a target without its provider section, with the other one, a user without a password and a placeholder key', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ Provider: 'Smtp' }, /Email:Targets:0:Smtp.*must be set when Provider is Smtp/s],
      [
        { Provider: 'SendGrid', SendGrid: { ApiKey: 'k1234' }, Smtp: { Host: 'relay.example' } },
        /Email:Targets:0:Smtp.*not used when Provider is SendGrid/s,
      ],
      [
        { Provider: 'Smtp', Smtp: { Host: 'relay.example', UserName: 'u' } },
        /Email:Targets:0:Smtp:Password.*must be set when UserName is set/s,
      ],
      [{ Provider: 'SendGrid', SendGrid: { ApiKey: '<API_KEY>' } }, /Email:Targets:0:SendGrid:ApiKey/],
      [{ Provider: 'Mailchimp', Smtp: { Host: 'relay.example' } }, /Email:Targets:0:Provider/],
    ];
    for (const [target, message] of cases) {
      const { builder } = createTestEngineBuilder();
      expect(() =>
        addEmailNotifier(builder, { Targets: [{ Id: 'mail', ...from, ...target } as never] }),
      ).toThrow(message);
    }
  });
});
