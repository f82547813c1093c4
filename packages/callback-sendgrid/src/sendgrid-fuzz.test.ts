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
import { mapSendGridStatusCallbacks, sendGridCallbackOperationId as op } from './index';
import { sendGridEvent, sendGridTestKey, signSendGrid } from './test-support/sendgrid-signing';

const signatureHeaders = ['x-twilio-email-event-webhook-signature', 'x-twilio-email-event-webhook-timestamp'];
let test: CallbackTestEngine;
afterAll(async () => test?.close());

describe('SendGrid callback parser under fuzzing', () => {
  it('never crashes, never answers 5xx, never reconciles unverified input, never changes state when refusing', async () => {
    const key = sendGridTestKey();
    test = await startCallbackEngine((builder, clock) =>
      mapSendGridStatusCallbacks(
        builder,
        { SignedEventWebhookPublicKey: key.publicKey, MaxRequestBodyBytes: 4096 },
        { now: clock },
      ),
    );
    const invitationId = await test.invite();
    const now = Math.floor(testStartMs / 1000);
    const seed = Buffer.from(
      JSON.stringify([sendGridEvent('seed', 'processed', { tenantId: 'acme', invitationId })]),
    );
    expect(
      (await test.invoke(op, { raw: seed, headers: signSendGrid(key.privateKey, seed, now) })).status,
    ).toBe(200);
    const target = { invoke: (request: any) => test.invoke(op, request), snapshot: () => test.snapshot() };
    await fc.assert(callbackFuzzProperty(fc, arbitraryCallbackRequest(fc, signatureHeaders), target), {
      numRuns: 300,
    });
    const valid = Buffer.from(
      JSON.stringify([sendGridEvent('e1', 'bounce', { tenantId: 'acme', invitationId })]),
    );
    const request = { raw: valid, headers: signSendGrid(key.privateKey, valid, now) };
    await fc.assert(callbackFuzzProperty(fc, arbitraryTampering(fc, request, signatureHeaders), target), {
      numRuns: 300,
    });
    expect(await test.status().hasObservation('sendgrid:e1')).toBe(false);
    expect((await test.invoke(op, request)).status).toBe(200);
  });
});
