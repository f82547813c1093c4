import { expectSecondCallRefused } from '@corekit/testing/registration-refusal';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { z } from 'zod';
import { addInvitationSender, defineInvitationDelivery, senderBaseShape, senderEventIds } from './index';

const schema = z
  .object({ ...senderBaseShape('test'), Endpoint: z.string().default('https://x.test') })
  .strict();
type TestSettings = z.output<typeof schema>;
const eventIds = senderEventIds('Tenant governance, test delivery', 'test', {
  registered: 4990,
  completed: 4991,
});

const addTestInvitationDelivery = defineInvitationDelivery<
  TestSettings,
  z.input<typeof schema>,
  { tag?: string }
>({
  packageName: '@corekit/sender-test',
  entry: 'addTestInvitationDelivery',
  section: 'Engine:MultiTenancy:Governance:TestInvitationDelivery',
  schema,
  eventIds,
  describe: (settings, extensions) => `endpoint ${settings.Endpoint}, tag ${extensions.tag ?? 'none'}`,
  create: () => async () => {
    throw new Error('not sent in these tests');
  },
});

describe('defineInvitationDelivery', () => {
  it('returns the add function: it binds the section by its full path, code options over configuration', () => {
    const { builder } = createTestEngineBuilder({
      configuration: {
        Engine: {
          MultiTenancy: { Governance: { TestInvitationDelivery: { Endpoint: 'https://configured.test' } } },
        },
      },
    });
    const settings = addTestInvitationDelivery(builder, { Enabled: false });
    expect(settings).toMatchObject({ Enabled: false, Endpoint: 'https://configured.test' });
  });

  it('refuses a second call with ALREADY_REGISTERED naming the entry and the package', () => {
    const { builder } = createTestEngineBuilder();
    addTestInvitationDelivery(builder, { Enabled: false });
    expectSecondCallRefused(
      () => addTestInvitationDelivery(builder, { Enabled: false }),
      'addTestInvitationDelivery',
      '@corekit/sender-test',
    );
  });

  it('counts a call of the deprecated addInvitationSender for the same section as the first call', () => {
    const { builder } = createTestEngineBuilder();
    addInvitationSender(
      builder,
      {
        section: 'TestInvitationDelivery',
        schema,
        eventIds,
        describe: () => 'deprecated entry',
        create: () => async () => {
          throw new Error('not sent in these tests');
        },
      },
      { Enabled: false },
    );
    expect(() => addTestInvitationDelivery(builder, { Enabled: false })).toThrow(
      expect.objectContaining({ code: 'ALREADY_REGISTERED' }),
    );
  });
});
