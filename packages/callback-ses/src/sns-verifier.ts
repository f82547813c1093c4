import { verify } from 'node:crypto';
import { OperationError, type Logger } from '@corekit/abstractions';
import { callbackErrorCodes, headerValue } from '@corekit/callback-kit';
import { sesCallbackEventIds } from './ses-event-ids';
import { snsTimestampFutureSkewSeconds, type SesCallbackOptions } from './ses-options';
import type { SigningCertificates } from './signing-certificates';
import { readEnvelope, snsStringToSign, validCertificateUrl, type SnsEnvelope } from './sns-envelope';

const base64 = /^[A-Za-z0-9+/]{16,1400}={0,2}$/;
/** SNS message ids are UUIDs; nothing else (a newline above all) may reach the string to sign or the replay key. */
const messageIdPattern = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** SNS timestamps: ISO-8601 UTC with optional fractional seconds (`2030-01-01T00:00:01.000Z`). */
const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/** Seconds since the envelope's Timestamp (negative when ahead of the clock); undefined when malformed. */
function envelopeAgeSeconds(timestamp: string, now: Date): number | undefined {
  if (!timestampPattern.test(timestamp)) return undefined;
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return undefined;
  return (now.getTime() - at) / 1000;
}

/**
 * Verifies an SNS envelope before anything in it is used: shape, MessageId a UUID, Timestamp well formed and
 * within SnsMessageMaxAgeSeconds, delivery headers agreeing with the body, signature version, allowed topic,
 * certificate URL, certificate (chain or pin), and the RSA signature over the exact string to sign of its
 * type. The MessageId and Timestamp checks come first: the string to sign joins fields with newlines, so a
 * newline in either could move text between fields (and change the replay key) with the signature intact. Throws the refusal (401, or 403 for a topic not allowed) after
 * logging 4579 with the reason only.
 */
export async function verifySnsEnvelope(
  body: unknown,
  headers: Readonly<Record<string, string | undefined>>,
  settings: SesCallbackOptions,
  certificates: SigningCertificates,
  logger: Logger,
  signal: AbortSignal,
  now: Date,
): Promise<SnsEnvelope> {
  const refuse = (
    code: string,
    reason: string,
    kind: 'unauthenticated' | 'forbidden' = 'unauthenticated',
  ): never => {
    logger.log({
      level: 'warn',
      eventId: sesCallbackEventIds.verificationRefused,
      category: 'tenant-governance.ses-callback',
      message: `An SNS callback was refused: ${reason}`,
      reason,
    });
    throw new OperationError(kind, code, `The SNS envelope was refused: ${reason}`);
  };
  const envelope = readEnvelope(body);
  if (envelope === 'missing-signature')
    return refuse(callbackErrorCodes.signatureMissing, 'signature-missing');
  if (envelope === 'malformed') return refuse(callbackErrorCodes.signatureMalformed, 'envelope-malformed');
  if (!messageIdPattern.test(envelope.MessageId))
    return refuse(callbackErrorCodes.messageIdInvalid, 'message-id-invalid');
  const age = envelopeAgeSeconds(envelope.Timestamp, now);
  if (age === undefined) return refuse(callbackErrorCodes.signatureMalformed, 'timestamp-malformed');
  if (age > settings.SnsMessageMaxAgeSeconds || -age > snsTimestampFutureSkewSeconds)
    return refuse(callbackErrorCodes.signatureStale, 'timestamp-stale');
  for (const [header, field] of [
    ['x-amz-sns-message-type', envelope.Type],
    ['x-amz-sns-message-id', envelope.MessageId],
    ['x-amz-sns-topic-arn', envelope.TopicArn],
  ] as const) {
    const value = headerValue(headers, header);
    if (value !== undefined && value !== field)
      return refuse(callbackErrorCodes.signatureInvalid, `header-mismatch:${header}`);
  }
  if (envelope.SignatureVersion !== '1' && envelope.SignatureVersion !== '2')
    return refuse(callbackErrorCodes.signatureMalformed, 'signature-version-unknown');
  if (settings.RequireSnsSignatureVersion2 && envelope.SignatureVersion !== '2')
    return refuse(callbackErrorCodes.signatureVersion, 'signature-version-1-refused');
  if (settings.RequireAllowedSnsTopicArn && !settings.AllowedSnsTopicArns.includes(envelope.TopicArn))
    return refuse(callbackErrorCodes.topicNotAllowed, 'topic-not-allowed', 'forbidden');
  const certificateUrl = validCertificateUrl(envelope.SigningCertURL);
  if (!certificateUrl) return refuse(callbackErrorCodes.certificateUrlInvalid, 'certificate-url-invalid');
  if (!base64.test(envelope.Signature))
    return refuse(callbackErrorCodes.signatureMalformed, 'signature-malformed');
  const signature = Buffer.from(envelope.Signature, 'base64');
  if (signature.toString('base64') !== envelope.Signature)
    return refuse(callbackErrorCodes.signatureMalformed, 'signature-malformed');
  const certificate = await certificates.get(certificateUrl, signal);
  if (typeof certificate === 'string')
    return refuse(callbackErrorCodes.certificateInvalid, `certificate-${certificate}`);
  let valid = false;
  try {
    valid = verify(
      envelope.SignatureVersion === '2' ? 'sha256' : 'sha1',
      Buffer.from(snsStringToSign(envelope), 'utf8'),
      certificate.publicKey,
      signature,
    );
  } catch {
    valid = false;
  }
  if (!valid) return refuse(callbackErrorCodes.signatureInvalid, 'signature-invalid');
  return envelope;
}
