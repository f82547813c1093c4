import fc from 'fast-check';
import {
  arbitraryCallbackRequest,
  arbitraryTampering,
  callbackFuzzProperty,
} from '@corekit/callback-kit/fuzz';
import {
  startCallbackEngine,
  testStartMs,
  type CallbackTestEngine,
} from '../../callback-kit/src/test-support/callback-test-engine';
import { mapMailgunStatusCallbacks, mailgunCallbackOperationId as op } from './index';
import { mailgunItem, mailgunTestKey } from './test-support/mailgun-signing';

let test: CallbackTestEngine;
afterAll(async () => test?.close());

describe('Mailgun callback parser under fuzzing', () => {
  it('never crashes, never answers 5xx, never reconciles unverified input, never changes state when refusing', async () => {
    test = await startCallbackEngine((builder, clock) =>
      mapMailgunStatusCallbacks(
        builder,
        { WebhookSigningKey: mailgunTestKey, MaxRequestBodyBytes: 4096 },
        { now: clock },
      ),
    );
    const invitationId = await test.invite();
    const now = Math.floor(testStartMs / 1000);
    const target = { invoke: (request: any) => test.invoke(op, request), snapshot: () => test.snapshot() };
    const seed = Buffer.from(
      JSON.stringify(mailgunItem('seed', 'accepted', now, { tenantId: 'acme', invitationId })),
    );
    expect((await test.invoke(op, { raw: seed, headers: {} })).status).toBe(200);
    await fc.assert(callbackFuzzProperty(fc, arbitraryCallbackRequest(fc, ['content-type']), target), {
      numRuns: 300,
    });
    // The provider signs timestamp + token only: event-data is covered by the token being single-use. Once the
    // valid webhook was received, every variation of it is refused (signature 401, replay 409, body 400).
    const valid = Buffer.from(
      JSON.stringify(mailgunItem('m1', 'bounced', now, { tenantId: 'acme', invitationId })),
    );
    await test.invoke(op, { raw: valid, headers: {} });
    await fc.assert(
      callbackFuzzProperty(
        fc,
        arbitraryTampering(fc, { raw: valid, headers: { 'content-type': 'application/json' } }, [
          'content-type',
        ]),
        target,
      ),
      { numRuns: 300 },
    );
  });
});
