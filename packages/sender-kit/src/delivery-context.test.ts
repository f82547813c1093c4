import {
  checkHeaderMap,
  coreHeaders,
  deliveryContext,
  failureOf,
  recipientSourceOf,
  statusOfError,
  statusOutcome,
} from './index';

const invitation = {
  tenantId: 'acme',
  invitationId: 'inv-1',
  roles: ['member'],
  inviteeKind: 'email',
  inviteeId: 'invitee@example.test',
  metadata: { to: 'meta@example.test' },
} as never;

it('finds the recipient in order and says where it came from', () => {
  expect(recipientSourceOf({ invitation, metadata: { to: 'dispatch@example.test' } }, 'to')).toEqual({
    address: 'dispatch@example.test',
    source: 'dispatch-metadata',
  });
  expect(recipientSourceOf({ invitation, metadata: { to: 'not-an-address' } }, 'to')).toEqual({
    address: 'meta@example.test',
    source: 'invitation-metadata',
  });
  expect(recipientSourceOf({ invitation, metadata: {} }, 'other')).toEqual({
    address: 'invitee@example.test',
    source: 'invitee-id',
  });
});

it('derives the same context on every attempt and names the X-Core-* headers', () => {
  const context = deliveryContext({ invitation, channel: 'email' }, 'smtp');
  expect(context.messageId).toMatch(/^[0-9a-f]{32}$/);
  expect(deliveryContext({ invitation, channel: 'email' }, 'smtp')).toEqual(context);
  expect(deliveryContext({ invitation, channel: 'email' }, 'other').messageId).not.toBe(context.messageId);
  expect(coreHeaders(context, { lower: true, only: ['tenantId'] })).toEqual({ 'x-core-tenant-id': 'acme' });
  expect(Object.keys(coreHeaders(context))).toHaveLength(5);
});

it('classifies SDK errors by status, abort and transport, never keeping the message', () => {
  const signal = new AbortController().signal;
  expect(statusOfError({ $metadata: { httpStatusCode: 503 } })).toBe(503);
  expect(statusOfError({ code: 401 })).toBe(401);
  expect(statusOfError({ code: 'ECONNREFUSED' })).toBeNull();
  expect(failureOf({ statusCode: 429, message: 'secret' }, signal, {}, 'xStatus')).toEqual({
    outcome: 'sender-failed',
    reason: 'http-status-429',
    retryable: true,
    metadata: { xStatus: 429 },
  });
  expect(failureOf(new Error('x'), signal, {}, 'x').reason).toBe('transport-error');
  expect(failureOf(Object.assign(new Error('x'), { name: 'TimeoutError' }), signal, {}, 'x').reason).toBe(
    'timeout',
  );
  expect(
    failureOf({ code: 'ECONNABORTED', message: 'timeout of 5ms exceeded' }, signal, {}, 'x').reason,
  ).toBe('timeout');
  expect(statusOutcome(202, true, 'pm', {})).toMatchObject({
    outcome: 'dispatched',
    providerMessageId: 'pm',
  });
  expect(statusOutcome(500, false, null, {})).toMatchObject({
    outcome: 'sender-failed',
    reason: 'http-status-500',
  });
});

it('checks header maps without echoing values', () => {
  expect(checkHeaderMap('P:Headers', { 'X-Ok': 'fine' })).toEqual([]);
  const problems = checkHeaderMap('P:Headers', {
    Authorization: 'Bearer hidden',
    'X-Bad': 'a\r\nb',
    'bad name': 'v',
  });
  expect(problems).toHaveLength(3);
  expect(problems.join(' ')).not.toContain('hidden');
  expect(checkHeaderMap('P:Headers', { Campaign: '1', 'X-B': '2' }, { prefix: 'x-', maxEntries: 1 })).toEqual(
    ['P:Headers must have at most 1 entries', 'P:Headers:Campaign must start with x-'],
  );
});
