import { signDeliveryStatusCallback } from './callback-signature';
import {
  closeGovernanceWebHosts,
  startGovernanceWeb,
  testSigningSecret,
} from './test-support/governance-web-host';

const callback = '/engine/tenant-invitations/delivery-status';
const signedOptions = {
  TenantInvitationDeliveryStatusCallbackSigningSecret: testSigningSecret,
  TenantInvitationDeliveryStatusCallbackSigningKeyId: 'key-2030',
};

afterEach(closeGovernanceWebHosts);

/** A started host with a dispatched invitation and a signer over the test clock. */
async function signedHost(web: Record<string, unknown> = {}) {
  const host = await startGovernanceWeb({ web: { ...signedOptions, ...web } });
  const invitation = await host.invite();
  const dispatched = await host.delivery!.dispatcher.dispatch({
    tenantId: 'acme',
    invitationId: invitation.invitationId,
  });
  const providerMessageId = dispatched.outcomes[0]!.providerMessageId!;
  const event = (eventId: string, status = 'delivered', extra: Record<string, unknown> = {}) => ({
    providerKey: 'relay',
    providerEventId: eventId,
    tenantId: 'acme',
    invitationId: invitation.invitationId,
    status,
    providerMessageId,
    ...extra,
  });
  const headersFor = (raw: string, timestamp = host.unixNow(), keyId = 'key-2030') => ({
    'x-core-callback-signature': signDeliveryStatusCallback(testSigningSecret, timestamp, raw),
    'x-core-callback-signature-timestamp': String(timestamp),
    'x-core-callback-key-id': keyId,
  });
  const send = (raw: string, headers: Record<string, string>, token = 'admin') =>
    host.post(callback, raw, token, headers);
  return { host, invitation, providerMessageId, event, headersFor, send };
}

describe('POST /engine/tenant-invitations/delivery-status', () => {
  it('records a signed callback and answers aggregate and per-event outcomes', async () => {
    const { host, invitation, event, headersFor, send } = await signedHost();
    const raw = JSON.stringify({ observations: [event('evt-1', 'delivered')] });
    const answer = await send(raw, headersFor(raw));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      accepted: 1,
      duplicateEvents: 0,
      unknownInvitations: 0,
      signatureVerified: true,
      providerMessageMatchRequired: true,
      events: [
        { index: 0, observationId: 'relay:evt-1', outcome: 'reconciled', reconciledStatus: 'delivered' },
      ],
    });
    const status = await host.delivery!.status.getStatus('acme', invitation.invitationId);
    expect(status?.status).toBe('delivered');
  });

  it('answers 200 with the outcome unknown-invitation, and provider-message-mismatch under the match rule', async () => {
    const { event, headersFor, send } = await signedHost();
    const raw = JSON.stringify({
      observations: [
        event('evt-2', 'delivered', { invitationId: 'no-such-invitation' }),
        event('evt-3', 'bounced', { providerMessageId: 'pm-someone-else' }),
      ],
    });
    const answer = await send(raw, headersFor(raw));
    expect(answer.status).toBe(200);
    expect(answer.body.unknownInvitations).toBe(1);
    expect(answer.body.events.map((item: { outcome: string }) => item.outcome)).toEqual([
      'unknown-invitation',
      'provider-message-mismatch',
    ]);
  });

  it('answers 401 for a missing, malformed, stale or invalid signature, for every tampered part', async () => {
    const { host, event, headersFor, send } = await signedHost();
    const raw = JSON.stringify({ observations: [event('evt-4')] });
    const good = headersFor(raw);
    const codes = async (headers: Record<string, string>, body = raw) => {
      const answer = await send(body, headers);
      return `${answer.status} ${answer.body?.code}`;
    };
    const without = (name: string) =>
      Object.fromEntries(Object.entries(good).filter(([key]) => key !== name));
    expect(await codes(without('x-core-callback-signature'))).toBe('401 CALLBACK_SIGNATURE_MISSING');
    expect(await codes(without('x-core-callback-signature-timestamp'))).toBe(
      '401 CALLBACK_SIGNATURE_MISSING',
    );
    expect(await codes(without('x-core-callback-key-id'))).toBe('401 CALLBACK_SIGNATURE_KEY_UNKNOWN');
    expect(await codes({ ...good, 'x-core-callback-signature': 'v2=abc' })).toBe(
      '401 CALLBACK_SIGNATURE_MALFORMED',
    );
    expect(await codes({ ...good, 'x-core-callback-signature-timestamp': '12.5' })).toBe(
      '401 CALLBACK_SIGNATURE_MALFORMED',
    );
    // Tampered timestamp (a second later), body (one byte), signature (one hex digit) and key id.
    const later = String(host.unixNow() + 1);
    expect(await codes({ ...good, 'x-core-callback-signature-timestamp': later })).toBe(
      '401 CALLBACK_SIGNATURE_INVALID',
    );
    expect(await codes(good, raw.replace('delivered', 'deliverex'))).toBe('401 CALLBACK_SIGNATURE_INVALID');
    const signature = good['x-core-callback-signature'];
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
    expect(await codes({ ...good, 'x-core-callback-signature': flipped })).toBe(
      '401 CALLBACK_SIGNATURE_INVALID',
    );
    expect(await codes({ ...good, 'x-core-callback-key-id': 'key-2031' })).toBe(
      '401 CALLBACK_SIGNATURE_KEY_UNKNOWN',
    );
    // A replayed body with a fresh timestamp but the old signature.
    host.advance(30);
    expect(await codes({ ...good, 'x-core-callback-signature-timestamp': String(host.unixNow()) })).toBe(
      '401 CALLBACK_SIGNATURE_INVALID',
    );
    // Stale: the clock moved past the tolerance (300 s) of the original timestamp, either way.
    host.advance(300);
    expect(await codes(good)).toBe('401 CALLBACK_SIGNATURE_STALE');
    expect(await codes(headersFor(raw, host.unixNow() + 400))).toBe('401 CALLBACK_SIGNATURE_STALE');
    expect(await host.delivery!.status.hasObservation('relay:evt-4')).toBe(false);
    expect(host.logger.records.some((record) => record.eventId === 4593)).toBe(true);
    expect(JSON.stringify(host.logger.records)).not.toContain(testSigningSecret);
  });

  it('answers 409 for the same signed callback inside the replay window, and accepts a re-signed one', async () => {
    const { host, event, headersFor, send } = await signedHost();
    const raw = JSON.stringify({ observations: [event('evt-5', 'deferred')] });
    const headers = headersFor(raw);
    expect((await send(raw, headers)).status).toBe(200);
    const replayed = await send(raw, headers);
    expect(replayed.status).toBe(409);
    expect(replayed.body.code).toBe('CALLBACK_REPLAYED');
    host.advance(1);
    const resigned = await send(raw, headersFor(raw));
    expect(resigned.status).toBe(200);
    expect(resigned.body.duplicateEvents).toBe(1);
    expect(resigned.body.events[0].outcome).toBe('duplicate');
  });

  it('refuses with 503 when the replay cache is full rather than accepting unguarded', async () => {
    const { host, event, headersFor, send } = await signedHost({
      TenantInvitationDeliveryStatusCallbackReplayCacheLimit: 10,
    });
    for (let index = 0; index < 10; index += 1) {
      const raw = JSON.stringify({ observations: [event(`evt-fill-${index}`, 'deferred')] });
      expect((await send(raw, headersFor(raw))).status).toBe(200);
    }
    const raw = JSON.stringify({ observations: [event('evt-over', 'deferred')] });
    const full = await send(raw, headersFor(raw));
    expect(full.status).toBe(503);
    expect(full.body.code).toBe('CALLBACK_REPLAY_CACHE_FULL');
    expect(await host.delivery!.status.hasObservation('relay:evt-over')).toBe(false);
  });

  it('answers 400 for malformed JSON or an invalid body, 413 for an oversized body or too many events', async () => {
    const { event, headersFor, send } = await signedHost({
      TenantInvitationDeliveryStatusCallbackMaxRequestBodyBytes: 2048,
      TenantInvitationDeliveryStatusCallbackMaxEventsPerRequest: 2,
    });
    const malformed = '{"observations": [';
    expect((await send(malformed, headersFor(malformed))).body.code).toBe('CALLBACK_BODY_INVALID');
    const invalid = JSON.stringify({ observations: [event('evt-6', 'opened')] });
    const invalidAnswer = await send(invalid, headersFor(invalid));
    expect(invalidAnswer.status).toBe(400);
    expect(invalidAnswer.body.code).toBe('CALLBACK_BODY_INVALID');
    const extra = JSON.stringify({ observations: [event('evt-7')], more: 1 });
    expect((await send(extra, headersFor(extra))).status).toBe(400);
    const many = JSON.stringify({ observations: [event('a'), event('b'), event('c')] });
    const tooMany = await send(many, headersFor(many));
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.code).toBe('CALLBACK_TOO_MANY_EVENTS');
    const big = JSON.stringify({
      observations: [event('evt-8', 'failed', { reason: 'x'.repeat(190) })],
      pad: 'y'.repeat(3000),
    });
    expect((await send(big, headersFor(big))).status).toBe(413);
    // The README's order: the event count is checked before the items are validated, so too many invalid
    // observations answer 413, and an oversized body 413 even when it is not JSON.
    const manyInvalid = JSON.stringify({ observations: [event('d', 'opened'), event('e', 'opened'), {}] });
    expect((await send(manyInvalid, headersFor(manyInvalid))).body.code).toBe('CALLBACK_TOO_MANY_EVENTS');
    const bigNotJson = `{${'z'.repeat(3000)}`;
    expect((await send(bigNotJson, headersFor(bigNotJson))).status).toBe(413);
  });

  it('answers 401 and 403 from the host authorizer before the signature is looked at', async () => {
    const { host, event, headersFor, send } = await signedHost();
    const raw = JSON.stringify({ observations: [event('evt-9')] });
    expect((await send(raw, headersFor(raw), '')).status).toBe(401);
    expect((await send(raw, headersFor(raw), 'reader')).status).toBe(403);
    expect(await host.delivery!.status.hasObservation('relay:evt-9')).toBe(false);
  });

  it('without a signing secret relies on authorization alone and skips the match when configured off', async () => {
    const host = await startGovernanceWeb({
      web: { RequireTenantInvitationDeliveryStatusCallbackProviderMessageMatch: false },
    });
    const invitation = await host.invite();
    const raw = JSON.stringify({
      observations: [
        {
          providerKey: 'relay',
          providerEventId: 'e1',
          tenantId: 'acme',
          invitationId: invitation.invitationId,
          status: 'accepted',
        },
      ],
    });
    const answer = await host.post(callback, raw, 'admin');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      accepted: 1,
      signatureVerified: false,
      providerMessageMatchRequired: false,
    });
  });
});
