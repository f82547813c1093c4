import {
  startCallbackEngine,
  type CallbackTestEngine,
} from '../../../callback-kit/src/test-support/callback-test-engine';
import { mapSesStatusCallbacks, sesCallbackOperationId } from '../index';
import {
  createSnsTestPki,
  loopbackLookup,
  startSnsTestServer,
  topicArn,
  type SnsTestPki,
} from './sns-test-pki';

/** A second allowed topic besides `topicArn`. */
export const otherTopic = 'arn:aws:sns:us-east-1:123456789012:other-events';

/** What `sesCallbackFixture` returns; `server` and `test` are read when a test runs. */
export interface SesCallbackFixture {
  readonly pki: SnsTestPki;
  readonly rogue: SnsTestPki;
  /** The local SNS server of this file. */
  readonly server: Awaited<ReturnType<typeof startSnsTestServer>>;
  /** The callback engine of the running test (after `start`). */
  readonly test: CallbackTestEngine;
  /** Starts the running test's engine with a registration of its own (closed after the test). */
  startEngine(...engine: Parameters<typeof startCallbackEngine>): Promise<CallbackTestEngine>;
  /** Starts the engine with `mapSesStatusCallbacks` (both topics allowed) and returns an invitation id. */
  start(options?: Record<string, unknown>, extensions?: Record<string, unknown>): Promise<string>;
  /** Posts `envelope` as SNS does (text/plain JSON) to the callback operation. */
  post(envelope: unknown, headers?: Record<string, string>): ReturnType<CallbackTestEngine['invoke']>;
  /** How many records carry `eventId` in the running test's log. */
  logged(eventId: number): number;
}

/**
 * The SES callback engine of the behaviour tests, with its hooks registered in the calling file: a test PKI and
 * a rogue one, the local SNS HTTPS server (serving the test and the rogue signing certificate, answering
 * subscribe URLs) for the whole file, and one callback engine per test, closed after it.
 */
export function sesCallbackFixture(): SesCallbackFixture {
  const pki = createSnsTestPki();
  const rogue = createSnsTestPki('Rogue Root');
  let server: Awaited<ReturnType<typeof startSnsTestServer>>;
  let test: CallbackTestEngine;

  beforeAll(async () => {
    server = await startSnsTestServer(pki, {
      '/SimpleNotificationService-test.pem': pki.leafCert,
      '/rogue.pem': rogue.leafCert,
    });
  });
  afterAll(async () => server.close());
  afterEach(async () => test?.close());

  return {
    pki,
    rogue,
    get server() {
      return server;
    },
    get test() {
      return test;
    },
    async startEngine(...engine: Parameters<typeof startCallbackEngine>) {
      test = await startCallbackEngine(...engine);
      return test;
    },
    async start(options: Record<string, unknown> = {}, extensions: Record<string, unknown> = {}) {
      test = await startCallbackEngine(
        (builder, now) =>
          mapSesStatusCallbacks(
            builder,
            { AllowedSnsTopicArns: [topicArn, otherTopic], ...options },
            { now, transport: { ca: pki.caCert, lookup: loopbackLookup, port: server.port }, ...extensions },
          ),
        { startMs: Date.now() },
      );
      return test.invite();
    },
    post(envelope: unknown, headers: Record<string, string> = {}) {
      return test.invoke(sesCallbackOperationId, {
        raw: Buffer.from(JSON.stringify(envelope)),
        headers: { 'content-type': 'text/plain; charset=UTF-8', ...headers },
      });
    },
    logged(eventId: number) {
      return test.logger.records.filter((record) => record.eventId === eventId).length;
    },
  };
}
