import { z } from 'zod';
import { callbackSection, sharedCallbackShape, type SharedCallbackOptions } from './callback-options';
import { defineStatusCallbacks } from './define-status-callbacks';
import { registerProviderCallback, type ProviderCallbackImplementation } from './register-callback';
import { startCallbackEngine } from './test-support/callback-test-engine';

const schema = z.object({ ...sharedCallbackShape('test') }).strict();
const spec = {
  providerKey: 'test',
  packageName: '@corekit/callback-test',
  operationId: 'tenant-governance.test-status-callback',
  surfaceId: 'tenant-invitation-delivery-test-status-callbacks',
  displayName: 'Test delivery-status callbacks',
  summary: 'Receives test events',
  description: 'Body: test events.',
  schema: schema as never,
  eventIds: {
    component: 'Tenant governance, test callbacks',
    ranges: [[4995, 4998]] as [number, number][],
    names: {},
  },
  category: 'tenant-governance.test-callback',
  requestLabel: 'A test callback',
  recordIds: { processed: 4995, duplicate: 4996, replayRefused: 4997, signatureRefused: 4998 },
};
const implementation = (): ProviderCallbackImplementation => ({
  handle: async () => {
    throw new Error('not called in these tests');
  },
  surface: () => ({
    translation: {},
    signature: {},
    replay: { enabled: false, policy: 'none', key: 'none', retentionSeconds: null, cacheLimit: null },
    idempotency: { enabled: false, key: 'none', diagnosticEventId: 4996 },
  }),
});
const mapTestStatusCallbacks = defineStatusCallbacks<SharedCallbackOptions, z.input<typeof schema>>({
  ...spec,
  entry: 'mapTestStatusCallbacks',
  section: callbackSection('TestInvitationDelivery'),
  implement: implementation,
});

describe('defineStatusCallbacks', () => {
  it('returns the map function: it binds the section by its full path and refuses a second call naming it and the package', async () => {
    let second: unknown;
    const test = await startCallbackEngine((builder) => {
      expect(mapTestStatusCallbacks(builder, { Source: 'code' }).options.Source).toBe('code');
      try {
        mapTestStatusCallbacks(builder);
      } catch (error) {
        second = error;
      }
    });
    await test.close();
    expect(second).toMatchObject({
      code: 'ALREADY_REGISTERED',
      message: expect.stringContaining('mapTestStatusCallbacks (@corekit/callback-test) was already called'),
    });
  });

  it('counts a call of the deprecated registerProviderCallback of the same package as the first call', async () => {
    let second: unknown;
    const test = await startCallbackEngine((builder) => {
      registerProviderCallback(
        builder,
        { ...spec, sectionName: 'TestInvitationDelivery' },
        {},
        {},
        implementation,
      );
      try {
        mapTestStatusCallbacks(builder);
      } catch (error) {
        second = error;
      }
    });
    await test.close();
    expect(second).toMatchObject({ code: 'ALREADY_REGISTERED' });
  });
});
