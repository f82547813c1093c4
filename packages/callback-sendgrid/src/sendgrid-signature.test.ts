import { checkSendGridSignature, sendGridPublicKey } from './sendgrid-signature';
import { sendGridVector } from './test-support/sendgrid-signing';

const key = sendGridPublicKey(sendGridVector.publicKey);
const at = new Date(Number(sendGridVector.timestamp) * 1000);
const check = (payload: Buffer, signature = sendGridVector.signature, timestamp = sendGridVector.timestamp) =>
  checkSendGridSignature(payload, signature, timestamp, key, 300, at).outcome;

describe('SEND signed event webhook (published test vector)', () => {
  const payload = Buffer.from(sendGridVector.payload);

  it('verifies the published vector', () => {
    expect(check(payload)).toBe('verified');
  });

  it('fails for every one-byte change of the payload (each position, several values)', () => {
    for (let position = 0; position < payload.length; position++) {
      for (const delta of [1, 0x20, 0x80]) {
        const changed = Buffer.from(payload);
        changed[position] = (changed[position]! + delta) % 256;
        expect(check(changed)).toBe('invalid');
      }
    }
  });

  it('fails for an inserted or removed byte, and for a re-serialized body', () => {
    expect(check(Buffer.concat([payload, Buffer.from(' ')]))).toBe('invalid');
    expect(check(payload.subarray(1))).toBe('invalid');
    expect(check(Buffer.from(JSON.stringify(JSON.parse(sendGridVector.payload), null, 1)))).toBe('invalid');
  });

  it('fails for every one-character change of the timestamp and the signature', () => {
    const stamp = sendGridVector.timestamp;
    for (let position = 0; position < stamp.length; position++) {
      const digit = String((Number(stamp[position]) + 1) % 10);
      const changed = stamp.slice(0, position) + digit + stamp.slice(position + 1);
      // within tolerance only for the last digits; farther ones are stale: refused either way
      expect(['invalid', 'stale']).toContain(check(payload, sendGridVector.signature, changed));
    }
    const signature = sendGridVector.signature;
    for (let position = 0; position < signature.length; position++) {
      const replacement = signature[position] === 'A' ? 'B' : 'A';
      const changed = signature.slice(0, position) + replacement + signature.slice(position + 1);
      expect(['invalid', 'malformed']).toContain(check(payload, changed));
    }
  });

  it('is missing, malformed or stale before any cryptography', () => {
    expect(checkSendGridSignature(payload, undefined, sendGridVector.timestamp, key, 300, at).outcome).toBe(
      'missing',
    );
    expect(checkSendGridSignature(payload, sendGridVector.signature, undefined, key, 300, at).outcome).toBe(
      'missing',
    );
    expect(check(payload, 'not base64!')).toBe('malformed');
    expect(check(payload, sendGridVector.signature, '15887883.67')).toBe('malformed');
    expect(check(payload, sendGridVector.signature, ` ${sendGridVector.timestamp}`)).toBe('malformed');
    const later = new Date(at.getTime() + 301_000);
    expect(
      checkSendGridSignature(payload, sendGridVector.signature, sendGridVector.timestamp, key, 300, later)
        .outcome,
    ).toBe('stale');
    const earlier = new Date(at.getTime() - 301_000);
    expect(
      checkSendGridSignature(payload, sendGridVector.signature, sendGridVector.timestamp, key, 300, earlier)
        .outcome,
    ).toBe('stale');
  });
});
