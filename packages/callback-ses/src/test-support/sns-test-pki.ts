import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import https from 'node:https';
import { encodeDeliveryContext } from '@corekit/callback-kit';
import { loopbackLookup } from '@corekit/testing/network-helpers';
import { createTestCertificateAuthority } from '@corekit/testing/servers/test-certificate-authority';
import { snsStringToSign, type SnsEnvelope } from '../sns-envelope';

/** A test CA (RSA) and a leaf it signed for sns.amazonaws.com and sns.us-east-1.amazonaws.com (also 127.0.0.1). */
export interface SnsTestPki {
  readonly caCert: string;
  readonly leafCert: string;
  readonly leafKey: KeyObject;
  readonly leafKeyPem: string;
}

/** Generates the CA and the leaf (RSA 2048, one day) with the shared test certificate authority. */
export function createSnsTestPki(caName = 'SNS Test Root'): SnsTestPki {
  const { caCert, leafCert, leafKeyPem } = createTestCertificateAuthority({
    caName,
    dnsNames: ['sns.amazonaws.com', 'sns.us-east-1.amazonaws.com'],
    keyType: 'rsa',
    leafKeyUsage: 'digitalSignature,keyEncipherment',
  });
  return { caCert, leafCert, leafKey: createPrivateKey(leafKeyPem), leafKeyPem };
}

/** Resolves every host to 127.0.0.1 (the SNS host names of the tests). */
export { loopbackLookup };

/** A local HTTPS server for sns.us-east-1.amazonaws.com: serves certificate files and answers subscribe URLs. */
export async function startSnsTestServer(pki: SnsTestPki, files: Record<string, string>) {
  const requests: string[] = [];
  let confirmStatus = 200;
  const server = https.createServer({ key: pki.leafKeyPem, cert: pki.leafCert }, (request, response) => {
    const url = request.url ?? '/';
    requests.push(url);
    if (url.startsWith('/?Action=ConfirmSubscription')) {
      if (confirmStatus >= 300 && confirmStatus < 400)
        response.writeHead(confirmStatus, { location: 'https://example.test/' });
      else response.writeHead(confirmStatus, { 'content-type': 'text/xml' });
      response.end('<ConfirmSubscriptionResponse/>');
      return;
    }
    const body = files[url.split('?')[0]!];
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    requests,
    setConfirmStatus(status: number) {
      confirmStatus = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const topicArn = 'arn:aws:sns:us-east-1:123456789012:ses-events';
export const certificateUrl = 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-test.pem';

/** Signs an envelope (version 1 SHA1withRSA or 2 SHA256withRSA) over its exact string to sign. */
export function signEnvelope(
  fields: Omit<SnsEnvelope, 'Signature' | 'SignatureVersion' | 'SigningCertURL'> & Partial<SnsEnvelope>,
  key: KeyObject,
  version: '1' | '2' = '2',
): SnsEnvelope {
  const envelope = {
    SignatureVersion: version,
    SigningCertURL: certificateUrl,
    ...fields,
    Signature: '',
  } as SnsEnvelope;
  const signature = sign(
    version === '2' ? 'sha256' : 'sha1',
    Buffer.from(snsStringToSign(envelope)),
    key,
  ).toString('base64');
  return { ...envelope, Signature: signature };
}

/**
 * An SES event record with the invitation context in the mail tags, written by the delivery context
 * contract's encoder (what the SES sender sends as EmailTags, echoed as name -> [value]).
 */
export function sesEvent(
  eventType: string,
  context: { tenantId?: string; invitationId?: string },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    eventType,
    mail: {
      timestamp: '2030-01-01T00:00:00.000Z',
      messageId: '0100018c-ses-message-id',
      destination: ['invitee@example.test'],
      tags: Object.fromEntries(
        Object.entries(encodeDeliveryContext(context, 'tag')).map(([name, value]) => [name, [value]]),
      ),
    },
    ...extra,
  };
}

let sequence = 0;
/** A signed Notification carrying `record`, timestamped now (the engines of these tests run on the wall clock). */
export function notification(
  record: unknown,
  key: KeyObject,
  overrides: Partial<SnsEnvelope> = {},
  version: '1' | '2' = '2',
) {
  sequence += 1;
  return signEnvelope(
    {
      Type: 'Notification',
      MessageId: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
      TopicArn: topicArn,
      Subject: 'Amazon SES Email Event Notification',
      Message: JSON.stringify(record),
      Timestamp: new Date().toISOString(),
      UnsubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=${topicArn}:sub`,
      ...overrides,
    },
    key,
    version,
  );
}

/** A signed SubscriptionConfirmation or UnsubscribeConfirmation. */
export function confirmation(
  type: 'SubscriptionConfirmation' | 'UnsubscribeConfirmation',
  key: KeyObject,
  overrides: Partial<SnsEnvelope> = {},
) {
  sequence += 1;
  const token = `token-${sequence}-abcdef0123456789`;
  return signEnvelope(
    {
      Type: type,
      MessageId: `00000000-0000-4000-9000-${String(sequence).padStart(12, '0')}`,
      TopicArn: topicArn,
      Token: token,
      Message: `You have chosen to ${type === 'SubscriptionConfirmation' ? 'subscribe to' : 'deactivate subscription'} the topic`,
      SubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(topicArn)}&Token=${token}`,
      Timestamp: new Date().toISOString(),
      ...overrides,
    },
    key,
  );
}
