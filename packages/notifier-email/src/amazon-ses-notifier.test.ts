import { verifySigV4 } from '@corekit/testing/aws-sigv4';
import type { RecordedHttpRequest } from '@corekit/testing/http-fake-server';
import { notifierConformanceSuite, sampleNotification } from '@corekit/testing/notifier-conformance';
import { startNotifierService, type NotifierService } from '@corekit/testing/notifier-service';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { notifierRegistryKey, type AlertNotification, type Notifier } from '@corekit/notifier-kit';
import { decodeSesTagValue } from '@corekit/email-ses';
import { addEmailNotifier } from './index';

const accessKeyId = 'AKIANOTIFIERTEST0001';
const secretAccessKey = 'sesNotifierSecret/0123456789+abcdefghijklmnopq';
const from = { FromAddress: 'alerts@core.example', FromName: 'Core Alerts', To: 'oncall@ops.example' };
const credentials = { accessKeyId, secretAccessKey };

interface SendEmailBody {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[] };
  Content?: {
    Simple?: { Subject?: { Data?: string }; Body?: { Text?: { Data?: string }; Html?: { Data?: string } } };
  };
  EmailTags?: Array<{ Name: string; Value: string }>;
  ConfigurationSetName?: string;
}

/** An SES v2 error answer: the status, the `x-amzn-ErrorType` header and `{ message }`, as the service sends them. */
const sesError = (status: number, errorType: string, message: string) => ({
  status,
  headers: { 'x-amzn-ErrorType': errorType, 'x-amzn-RequestId': 'fake-request' },
  body: { message },
});

/**
 * Answers as the SES v2 SendEmail operation does: `POST /v2/email/outbound-emails` signed with SigV4 for the test
 * credentials in eu-west-1 / `ses` (the signature recomputed from the request: 403 SignatureDoesNotMatch or
 * UnrecognizedClientException otherwise); 400 BadRequestException without a sender, a recipient, a subject or a
 * body; 200 `{ MessageId }` otherwise.
 */
function sesAnswer(request: RecordedHttpRequest) {
  if (request.method !== 'POST' || request.path !== '/v2/email/outbound-emails')
    return sesError(404, 'NotFoundException', 'not found');
  const refusal = verifySigV4(request, { credentials, region: 'eu-west-1', service: 'ses' });
  if (refusal) return sesError(403, refusal.errorType, refusal.message);
  const body = JSON.parse(request.body) as SendEmailBody;
  const simple = body.Content?.Simple;
  if (!body.FromEmailAddress || !body.Destination?.ToAddresses?.length || !simple?.Subject?.Data)
    return sesError(400, 'BadRequestException', 'Missing required field');
  if (!simple.Body?.Text?.Data && !simple.Body?.Html?.Data)
    return sesError(400, 'BadRequestException', 'Message body is empty');
  return { status: 200, body: { MessageId: `0102018c-fake-${request.bytes.length}-000000` } };
}

const sesTarget = (url: string, secret = secretAccessKey) => ({
  Provider: 'AmazonSes',
  ...from,
  AmazonSes: {
    RegionSystemName: 'eu-west-1',
    ConfigurationSetName: 'alerts',
    BaseUrl: url,
    AccessKeyId: accessKeyId,
    SecretAccessKey: secret,
  },
});

function expectSesEmail(request: RecordedHttpRequest, notification: AlertNotification) {
  const body = JSON.parse(request.body) as SendEmailBody;
  expect(body.FromEmailAddress).toBe('"Core Alerts" <alerts@core.example>');
  expect(body.Destination?.ToAddresses).toEqual(['oncall@ops.example']);
  expect(body.ConfigurationSetName).toBe('alerts');
  const subject = body.Content!.Simple!.Subject!.Data!;
  expect(subject).toBe(notification.title);
  const text = body.Content!.Simple!.Body!.Text!.Data!;
  const html = body.Content!.Simple!.Body!.Html!.Data!;
  for (const alert of notification.alerts) {
    const state = alert.status === 'resolved' ? 'resolved' : alert.severity;
    expect(text).toContain(`${state} ${alert.ruleId} ${alert.dependencyId}: ${alert.description}`);
    expect(html).toContain(`<td>${state}</td><td>${alert.ruleId} ${alert.dependencyId}</td>`);
  }
  const tags = Object.fromEntries((body.EmailTags ?? []).map((tag) => [tag.Name, tag.Value]));
  expect(tags.core_incident_id).toBe(notification.incidentId);
  expect(decodeSesTagValue(tags.core_notification_id!)).toBe(notification.notificationId);
}

notifierConformanceSuite({
  kind: 'Email (Amazon SES)',
  add: addEmailNotifier as never,
  startService: () => startNotifierService(sesAnswer),
  target: (url) => sesTarget(url),
  secret: secretAccessKey,
  // The AWS SDK's service errors carry the status, not the answer's headers: a Retry-After is not seen.
  faults: { responseCode: (status) => status, retryAfter: false },
  verify: expectSesEmail,
});

describe('email notifier through Amazon SES', () => {
  let service: NotifierService;
  beforeAll(async () => {
    service = await startNotifierService(sesAnswer);
  });
  afterAll(() => service.close());

  function notifierOf(target: Record<string, unknown>): Notifier {
    const { builder } = createTestEngineBuilder();
    addEmailNotifier(builder, { Targets: [{ Id: 'ses-mail', TimeoutSeconds: 5, ...target } as never] });
    return builder.resolve(notifierRegistryKey)!.get('ses-mail') as Notifier;
  }

  it('is refused by the service when the request is signed with another secret (the fake checks the signature)', async () => {
    const before = service.accepted.length;
    const outcome = await notifierOf(sesTarget(service.url, 'anotherSecret/0123456789')).send(
      sampleNotification(),
    );
    expect(outcome).toMatchObject({ outcome: 'terminal', responseCode: 403, reason: 'http-status-403' });
    expect(service.accepted).toHaveLength(before);
    expect(service.requests.at(-1)!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIANOTIFIERTEST0001\/\d{8}\/eu-west-1\/ses\/aws4_request/,
    );
  });

  it('labels the target with the SES host, never the key', () => {
    const regional = notifierOf({ ...sesTarget(service.url), AmazonSes: { RegionSystemName: 'eu-west-1' } });
    expect(regional.target).toBe('amazonses email.eu-west-1.amazonaws.com');
    expect(notifierOf(sesTarget(service.url)).target).toBe(`amazonses ${new URL(service.url).host}`);
  });

  it('refuses half-given credentials, a bad region and a placeholder secret, naming the key', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { RegionSystemName: 'eu-west-1', AccessKeyId: accessKeyId },
        /Email:Targets:0:AmazonSes:SecretAccessKey.*must be set when AccessKeyId/s,
      ],
      [
        { RegionSystemName: 'eu-west-1', SecretAccessKey: 'x'.repeat(40) },
        /Email:Targets:0:AmazonSes:AccessKeyId/,
      ],
      [
        { RegionSystemName: 'eu-west-1', SessionToken: 'token-value' },
        /Email:Targets:0:AmazonSes:SessionToken/,
      ],
      [{ RegionSystemName: 'Ireland' }, /Email:Targets:0:AmazonSes:RegionSystemName.*region system name/s],
      [
        { RegionSystemName: 'eu-west-1', AccessKeyId: accessKeyId, SecretAccessKey: '<SECRET>' },
        /Email:Targets:0:AmazonSes:SecretAccessKey/,
      ],
    ];
    for (const [ses, message] of cases) {
      const { builder } = createTestEngineBuilder();
      expect(() =>
        addEmailNotifier(builder, {
          Targets: [{ Id: 'ses-mail', Provider: 'AmazonSes', ...from, AmazonSes: ses } as never],
        }),
      ).toThrow(message);
    }
  });
});
