import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileStoreProvider } from '@corekit/engine-core';
import { mapSendGridStatusCallbacks, sendGridCallbackSurfaceId } from './index';
import { sendGridTestKey } from './test-support/sendgrid-signing';
import { sendGridCallbackFixture } from './test-support/sendgrid-callback-fixture';

const sendgrid = sendGridCallbackFixture();

/** The replay and event-id idempotency posture of an engine whose store provider `directory` installs in code. */
async function postureWith(directory?: string) {
  const key = sendGridTestKey();
  await sendgrid.startEngine((builder, now) => {
    mapSendGridStatusCallbacks(builder, { SignedEventWebhookPublicKey: key.publicKey }, { now });
    if (directory) builder.useStoreProvider(new FileStoreProvider({ directory }));
  });
  const metadata = sendgrid.test.engine
    .technologySurfaces()
    .find((entry) => entry.id === sendGridCallbackSurfaceId)!.metadata as Record<
    string,
    Record<string, unknown>
  >;
  const { replayProtection, eventIdIdempotency } = metadata;
  return {
    replay: [replayProtection.store, replayProtection.durability, replayProtection.scope],
    idempotency: [eventIdIdempotency.store, eventIdIdempotency.durability, eventIdIdempotency.storeScope],
  };
}

describe('SendGrid callback posture follows the installed store provider', () => {
  it('Memory (the default): process memory, process-local', async () => {
    const memory = ['memory', 'process-memory', 'process-local'];
    expect(await postureWith()).toEqual({ replay: memory, idempotency: memory });
  });

  it('File installed in code after the callback registration: durable, node-local', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'sendgrid-posture-'));
    const file = ['file', 'durable-local', 'node-local'];
    expect(await postureWith(directory)).toEqual({ replay: file, idempotency: file });
  });
});
