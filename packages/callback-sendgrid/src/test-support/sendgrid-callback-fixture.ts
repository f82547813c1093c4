import type { KeyObject } from 'node:crypto';
import {
  startCallbackEngine,
  testStartMs,
  type CallbackTestEngine,
} from '../../../callback-kit/src/test-support/callback-test-engine';
import { mapSendGridStatusCallbacks } from '../index';
import { sendGridTestKey, signSendGrid } from './sendgrid-signing';

/** The engine clock of the callback tests, in Unix seconds (the signed webhook's timestamp unit). */
export const nowSeconds = Math.floor(testStartMs / 1000);

/** What `sendGridCallbackFixture` returns; `test` is read when a test runs. */
export interface SendGridCallbackFixture {
  /** The callback engine of the running test (after `start` or `startEngine`). */
  readonly test: CallbackTestEngine;
  /** Starts the running test's engine with a registration of its own (closed after the test). */
  startEngine(...engine: Parameters<typeof startCallbackEngine>): Promise<CallbackTestEngine>;
  /** Makes a fresh key pair and starts the engine verifying it, with `options` over the public key. */
  start(options?: Record<string, unknown>): Promise<ReturnType<typeof sendGridTestKey>>;
  /** `events` as a raw body with the signature headers of the key `start` made, at `timestamp`. */
  signed(events: unknown, timestamp?: number): { raw: Buffer; headers: ReturnType<typeof signSendGrid> };
}

/** The SendGrid callback engine of the behaviour tests: one per test, closed after it. */
export function sendGridCallbackFixture(): SendGridCallbackFixture {
  let test: CallbackTestEngine | undefined;
  let privateKey: KeyObject | undefined;
  afterEach(async () => test?.close());
  const running = () => {
    if (!test) throw new Error('start the callback engine first');
    return test;
  };
  return {
    get test() {
      return running();
    },
    async startEngine(...engine) {
      test = await startCallbackEngine(...engine);
      return test;
    },
    async start(options = {}) {
      const key = sendGridTestKey();
      privateKey = key.privateKey;
      test = await startCallbackEngine((builder, clock) =>
        mapSendGridStatusCallbacks(
          builder,
          { SignedEventWebhookPublicKey: key.publicKey, ...options },
          { now: clock },
        ),
      );
      return key;
    },
    signed(events, timestamp = nowSeconds) {
      if (!privateKey) throw new Error('start the callback engine first');
      const raw = Buffer.from(JSON.stringify(events));
      return { raw, headers: signSendGrid(privateKey, raw, timestamp) };
    },
  };
}
