import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  decodeContextValue,
  deliveryContextBody,
  deliveryContextHeaders,
  deliveryContextTable,
  encodeContextValue,
  encodeDeliveryContext,
  readDeliveryContext,
} from './index';

const context = {
  tenantId: 'acme.eu:west',
  invitationId: '3f1c2a7e-0000-4000-8000-000000000001',
  channel: 'email',
  senderId: 'amazon-ses',
  messageId: '0123456789abcdef0123456789abcdef',
};

describe('the delivery context contract', () => {
  it('encodes a value only when its carrier cannot take it, and decodes every encoding back', () => {
    expect(encodeContextValue('acme', 'tag')).toBe('acme');
    expect(encodeContextValue('acme.eu:west', 'text')).toBe('acme.eu:west');
    expect(encodeContextValue('acme.eu:west', 'header')).toBe('acme.eu:west');
    expect(encodeContextValue('acme.eu:west', 'tag')).toMatch(/^b64-[A-Za-z0-9_-]+$/);
    for (const value of ['acme.eu:west', 'b64-looks-encoded', 'zürich tenant', 'a\u0001b', 'x'.repeat(150)]) {
      for (const alphabet of ['text', 'header', 'tag'] as const) {
        const encoded = encodeContextValue(value, alphabet)!;
        expect(decodeContextValue(encoded)).toBe(value);
      }
    }
    expect(encodeContextValue('b64-x', 'text')).not.toBe('b64-x');
    expect(encodeContextValue('zürich', 'header')).toMatch(/^b64-/);
  });

  it('treats a cut, padded or altered encoding as absent, and leaves out a tag value that cannot fit', () => {
    const encoded = encodeContextValue('acme.eu:west', 'tag')!;
    expect(decodeContextValue(encoded.slice(0, -1))).toBeUndefined();
    expect(decodeContextValue(`${encoded}=`)).toBeUndefined();
    expect(decodeContextValue('b64-')).toBeUndefined();
    expect(encodeContextValue(`${'a'.repeat(190)}.`, 'tag')).toBeUndefined();
    expect(encodeDeliveryContext({ ...context, tenantId: `${'a'.repeat(190)}.` }, 'tag')).not.toHaveProperty(
      'core_tenant_id',
    );
  });

  it('reads back exactly what senders write, in every carrier', () => {
    const expected = {
      tenantId: context.tenantId,
      invitationId: context.invitationId,
      channel: 'email',
      senderId: 'amazon-ses',
      messageId: context.messageId,
    };
    const text = encodeDeliveryContext(context, 'text');
    expect(Object.keys(text).sort()).toEqual(
      ['core_channel', 'core_invitation_id', 'core_message_id', 'core_sender_id', 'core_tenant_id'].sort(),
    );
    expect(readDeliveryContext((name) => text[name])).toEqual(expected);
    const tags = encodeDeliveryContext(context, 'tag');
    expect(tags.core_tenant_id).toMatch(/^b64-/);
    // CLOUD echoes tags as name -> [value].
    expect(readDeliveryContext((name) => (tags[name] ? [tags[name]] : undefined))).toEqual(expected);
    expect(deliveryContextHeaders(context, { lower: true, only: ['tenantId', 'messageId'] })).toEqual({
      'x-core-message-id': context.messageId,
      'x-core-tenant-id': context.tenantId,
    });
    expect(deliveryContextBody(context)).toEqual(expected);
  });

  it('both kits document the contract with the same generated table', () => {
    const table = deliveryContextTable();
    for (const readme of ['../README.md', '../../sender-kit/README.md']) {
      const text = readFileSync(join(__dirname, readme), 'utf8');
      // Regenerate with: node -e "console.log(require('@corekit/callback-kit').deliveryContextTable())"
      expect(text).toContain(table);
    }
  });
});
