import { secretString } from '@corekit/abstractions';
import { endpointUrl, headerMap, notPlaceholder, senderBaseShape, statusCodeList } from '@corekit/sender-kit';
import { z } from 'zod';

const headerName = (fallback: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'must be a header name')
    .default(fallback);

/** `Engine:MultiTenancy:Governance:HttpInvitationDelivery` (spec 2.6, generic HTTP webhook). */
export const httpSenderOptionsSchema = z.object({
  ...senderBaseShape('http-webhook'),
  /** The receiver's absolute http(s) URL. Required. */
  Endpoint: notPlaceholder(z.string()).pipe(endpointUrl(true)),
  Method: z.enum(['POST', 'PUT', 'PATCH']).default('POST'),
  /** Budget of the whole send, every attempt and retry delay included. */
  TimeoutSeconds: z.number().int().min(1).max(300).default(10),
  MaxAttempts: z.number().int().min(1).max(10).default(3),
  RetryDelayMilliseconds: z.number().int().min(0).max(60_000).default(500),
  RetryStatusCodes: statusCodeList().default([408, 429, 500, 502, 503, 504]),
  RetryTransportFailures: z.boolean().default(true),
  EnableIdempotencyHeader: z.boolean().default(true),
  IdempotencyHeaderName: headerName('Idempotency-Key'),
  /** Dispatch metadata key a caller may supply its own idempotency key under. */
  IdempotencyMetadataKey: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,64}$/)
    .default('idempotencyKey'),
  /** Accepted statuses; any 2xx when omitted. */
  ExpectedStatusCodes: statusCodeList().optional(),
  /** HMAC-SHA256 key; unset sends unsigned. A `<SIGNING_SECRET>` placeholder is a startup error. */
  SigningSecret: secretString().optional(),
  SigningKeyId: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,64}$/)
    .optional(),
  SignatureHeaderName: headerName('X-Core-Signature'),
  SignatureTimestampHeaderName: headerName('X-Core-Signature-Timestamp'),
  SignatureKeyIdHeaderName: headerName('X-Core-Signature-Key-Id'),
  ProviderMessageIdHeaderName: headerName('X-Message-Id'),
  Headers: headerMap(),
  IncludeResponseBodyInMetadata: z.boolean().default(false),
  /** Characters of the response copied (the dispatcher keeps at most 200 in run state). */
  ResponseBodyMetadataLimit: z.number().int().min(1).max(200).default(200),
});

export type HttpSenderOptions = z.output<typeof httpSenderOptionsSchema>;
export type HttpSenderOptionsInput = z.input<typeof httpSenderOptionsSchema>;
