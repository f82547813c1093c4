import { OperationError } from '@corekit/abstractions';
import {
  assertBatchSize,
  deliveryContextNames,
  readDeliveryContext,
  mapMailgunEvent,
  mapSendGridEvent,
  mapSesEvent,
  parseJsonBody,
  ReplayGuard,
  reconcileTranslatedEvents,
  sharedCallbackShape,
  type TranslatedEvent,
} from './index';
import { z } from 'zod';
import { startCallbackEngine, type CallbackTestEngine } from './test-support/callback-test-engine';

describe('status mapping (spec 3)', () => {
  it.each([
    ['processed', 'accepted'],
    ['delivered', 'delivered'],
    ['deferred', 'deferred'],
    ['bounce', 'bounced'],
    ['dropped', 'suppressed'],
    ['spamreport', 'suppressed'],
    ['unsubscribe', 'suppressed'],
    ['group_unsubscribe', 'suppressed'],
  ])('SEND %s → %s', (event, status) => expect(mapSendGridEvent(event)).toEqual({ status }));
  it('SEND engagement and unknown events', () => {
    expect(mapSendGridEvent('open')).toEqual({ skip: 'engagement' });
    expect(mapSendGridEvent('click', true)).toEqual({ status: 'delivered' });
    expect(mapSendGridEvent('group_resubscribe')).toEqual({ skip: 'unmapped' });
    expect(mapSendGridEvent('__proto__')).toEqual({ skip: 'unmapped' });
    expect(mapSendGridEvent('toString')).toEqual({ skip: 'unmapped' });
  });
  it('MSG rows', () => {
    expect(mapMailgunEvent('accepted', undefined)).toEqual({ status: 'accepted' });
    expect(mapMailgunEvent('delivered', undefined)).toEqual({ status: 'delivered' });
    expect(mapMailgunEvent('failed', 'temporary')).toEqual({ status: 'deferred' });
    expect(mapMailgunEvent('failed', 'permanent')).toEqual({ status: 'bounced' });
    expect(mapMailgunEvent('failed', undefined)).toEqual({ status: 'failed' });
    expect(mapMailgunEvent('complained', undefined)).toEqual({ status: 'suppressed' });
    expect(mapMailgunEvent('unsubscribed', undefined)).toEqual({ status: 'suppressed' });
    expect(mapMailgunEvent('opened', undefined)).toEqual({ skip: 'engagement' });
    expect(mapMailgunEvent('clicked', undefined, true)).toEqual({ status: 'delivered' });
    expect(mapMailgunEvent('rejected', undefined)).toEqual({ skip: 'unmapped' });
  });
  it('CLOUD rows', () => {
    expect(mapSesEvent('Send', undefined)).toEqual({ status: 'accepted' });
    expect(mapSesEvent('Delivery', undefined)).toEqual({ status: 'delivered' });
    expect(mapSesEvent('Bounce', 'Transient')).toEqual({ status: 'deferred' });
    expect(mapSesEvent('Bounce', 'Permanent')).toEqual({ status: 'bounced' });
    expect(mapSesEvent('Bounce', 'Undetermined')).toEqual({ status: 'bounced' });
    expect(mapSesEvent('Complaint', undefined)).toEqual({ status: 'suppressed' });
    expect(mapSesEvent('Reject', undefined)).toEqual({ status: 'suppressed' });
    expect(mapSesEvent('Rendering Failure', undefined)).toEqual({ status: 'failed' });
    expect(mapSesEvent('DeliveryDelay', undefined)).toEqual({ status: 'deferred' });
    expect(mapSesEvent('Open', undefined)).toEqual({ skip: 'engagement' });
    expect(mapSesEvent('Click', undefined, true)).toEqual({ status: 'delivered' });
    expect(mapSesEvent('Subscription', undefined, true)).toEqual({ skip: 'unmapped' });
  });
});

describe('raw body, bounds and context', () => {
  it('parses strict UTF-8 JSON and refuses the rest with 400', () => {
    expect(parseJsonBody(Buffer.from('[1]'))).toEqual([1]);
    for (const raw of [Buffer.alloc(0), Buffer.from([0xff, 0x5b, 0x5d]), Buffer.from('{nope')]) {
      expect(() => parseJsonBody(raw)).toThrow(OperationError);
    }
  });
  it('refuses batches over the limit', () => {
    expect(() => assertBatchSize(3, 2)).toThrow(/MaxEventsPerRequest/);
    expect(() => assertBatchSize(2, 2)).not.toThrow();
  });
  it('needs both tenant and invitation ids, drops malformed optional parts', () => {
    const read = (values: Record<string, unknown>) => (name: string) => values[name];
    const { tenantId, invitationId, channel, senderId } = deliveryContextNames;
    expect(readDeliveryContext(read({ [tenantId.field]: 'acme' }))).toBeUndefined();
    expect(readDeliveryContext(read({ [invitationId.field]: 'i-1' }))).toBeUndefined();
    expect(
      readDeliveryContext(read({ [tenantId.field]: 'ac me', [invitationId.field]: 'i' })),
    ).toBeUndefined();
    expect(
      readDeliveryContext(
        read({
          [tenantId.field]: ['acme'],
          [invitationId.field]: ['i-1'],
          [channel.field]: 'E MAIL',
          [senderId.field]: 'sendgrid',
        }),
      ),
    ).toEqual({ tenantId: 'acme', invitationId: 'i-1', senderId: 'sendgrid' });
  });
  it('strict shared options with fail-closed defaults', () => {
    const schema = z.strictObject(sharedCallbackShape('sendgrid'));
    const options = schema.parse({});
    expect(options.RequireStatusCallbackAuthorization).toBe(true);
    expect(options.StatusCallbackRoutePattern).toBe('/engine/tenant-invitations/delivery-status/sendgrid');
    expect(schema.safeParse({ MaxEventsPerRequests: 3 }).success).toBe(false);
  });
});

describe('replay guard and reconciliation', () => {
  let test: CallbackTestEngine;
  afterEach(async () => test?.close());

  it('claims a fingerprint once per retention window and stays within its cache limit', async () => {
    let guard: ReplayGuard | undefined;
    test = await startCallbackEngine((builder, now) => {
      guard = new ReplayGuard(builder.openStore('replay-test', { maxEntries: 10 }), 60, 10, now);
    });
    expect(await guard!.claim(['a', '1'])).toBe('fresh');
    expect(await guard!.claim(['a', '1'])).toBe('replay');
    test.advance(61);
    expect(await guard!.claim(['a', '1'])).toBe('fresh');
    for (let index = 0; index < 25; index++) expect(await guard!.claim(['b', String(index)])).toBe('fresh');
    expect(await guard!.count()).toBeLessThanOrEqual(10);
  });

  it('skips duplicates inside the batch and those already stored, reconciles the rest', async () => {
    test = await startCallbackEngine(() => undefined);
    const invitationId = await test.invite();
    const event = (id: string, status: 'accepted' | 'delivered'): TranslatedEvent => ({
      kind: 'observation',
      observation: { providerKey: 'sendgrid', providerEventId: id, tenantId: 'acme', invitationId, status },
    });
    const settings = {
      providerKey: 'sendgrid',
      status: test.status(),
      options: z.strictObject(sharedCallbackShape('sendgrid')).parse({}),
      idempotency: true,
      logger: test.logger,
      duplicateEventId: 4565,
      category: 'test',
    };
    const first = await reconcileTranslatedEvents(
      [event('e1', 'accepted'), event('e1', 'accepted'), { kind: 'skipped', reason: 'no-context' }],
      settings,
    );
    expect(first).toMatchObject({ received: 3, translated: 2, skipped: 1, accepted: 1, duplicateEvents: 1 });
    expect(first.outcomes.map((entry) => entry.outcome)).toEqual([
      'reconciled',
      'duplicate',
      'skipped-no-context',
    ]);
    const second = await reconcileTranslatedEvents(
      [event('e1', 'accepted'), event('e2', 'delivered')],
      settings,
    );
    expect(second.outcomes.map((entry) => entry.outcome)).toEqual(['duplicate', 'reconciled']);
    expect(test.logger.records.filter((record) => record.eventId === 4565)).toHaveLength(2);
    expect((await test.status().getStatus('acme', invitationId))?.status).toBe('delivered');
    const notRecorded = await reconcileTranslatedEvents([event('e3', 'delivered')], {
      ...settings,
      options: { ...settings.options, RecordStatus: false },
    });
    expect(notRecorded.outcomes[0]!.outcome).toBe('translated-not-recorded');
    expect(await test.status().hasObservation('sendgrid:e3')).toBe(false);
  });
});
