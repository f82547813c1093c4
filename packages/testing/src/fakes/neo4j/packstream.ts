// PackStream v1 (the value encoding of the Bolt protocol) and Bolt's chunked message framing, as documented at
// https://neo4j.com/docs/bolt/current/packstream/ and https://neo4j.com/docs/bolt/current/bolt/message/.
// Only what the fake server needs: every value type a driver sends in a request, and the types it answers with.

/** A PackStream structure: a signature byte and its fields (every Bolt message is one). */
export interface PackStreamStructure {
  readonly signature: number;
  readonly fields: readonly unknown[];
}

export function structure(signature: number, fields: readonly unknown[]): PackStreamStructure {
  return { signature, fields };
}

function isStructure(value: unknown): value is PackStreamStructure {
  return typeof value === 'object' && value !== null && 'signature' in value && 'fields' in value;
}

function sizeHeader(size: number, tiny: number, eight: number, sixteen: number, thirtyTwo: number): Buffer {
  if (size < 16 && tiny >= 0) return Buffer.from([tiny | size]);
  if (size < 0x100 && eight >= 0) return Buffer.from([eight, size]);
  if (size < 0x10000) {
    const header = Buffer.alloc(3);
    header[0] = sixteen;
    header.writeUInt16BE(size, 1);
    return header;
  }
  const header = Buffer.alloc(5);
  header[0] = thirtyTwo;
  header.writeUInt32BE(size, 1);
  return header;
}

function packInteger(value: bigint): Buffer {
  if (value >= -16n && value < 128n) return Buffer.from([Number(value) & 0xff]);
  if (value >= -128n && value < 128n) return Buffer.from([0xc8, Number(value) & 0xff]);
  if (value >= -32768n && value < 32768n) {
    const buffer = Buffer.alloc(3);
    buffer[0] = 0xc9;
    buffer.writeInt16BE(Number(value), 1);
    return buffer;
  }
  if (value >= -2147483648n && value < 2147483648n) {
    const buffer = Buffer.alloc(5);
    buffer[0] = 0xca;
    buffer.writeInt32BE(Number(value), 1);
    return buffer;
  }
  const buffer = Buffer.alloc(9);
  buffer[0] = 0xcb;
  buffer.writeBigInt64BE(value, 1);
  return buffer;
}

/** Encodes a JavaScript value: null, boolean, integer number or bigint, float, string, Buffer, array, plain object, structure. */
export function pack(value: unknown): Buffer {
  if (value === null || value === undefined) return Buffer.from([0xc0]);
  if (value === true) return Buffer.from([0xc3]);
  if (value === false) return Buffer.from([0xc2]);
  if (typeof value === 'bigint') return packInteger(value);
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return packInteger(BigInt(value));
    const buffer = Buffer.alloc(9);
    buffer[0] = 0xc1;
    buffer.writeDoubleBE(value, 1);
    return buffer;
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([sizeHeader(bytes.length, 0x80, 0xd0, 0xd1, 0xd2), bytes]);
  }
  if (Buffer.isBuffer(value)) {
    return Buffer.concat([sizeHeader(value.length, -1, 0xcc, 0xcd, 0xce), value]);
  }
  if (Array.isArray(value)) {
    return Buffer.concat([sizeHeader(value.length, 0x90, 0xd4, 0xd5, 0xd6), ...value.map(pack)]);
  }
  if (isStructure(value)) {
    return Buffer.concat([
      Buffer.from([0xb0 | value.fields.length, value.signature]),
      ...value.fields.map(pack),
    ]);
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    const parts = [sizeHeader(entries.length, 0xa0, 0xd8, 0xd9, 0xda)];
    for (const [key, item] of entries) parts.push(pack(key), pack(item));
    return Buffer.concat(parts);
  }
  throw new TypeError(`PackStream cannot encode a ${typeof value}`);
}

/** Decodes PackStream values from one message body. Integers come back as numbers when safe, else bigint. */
export class PackStreamReader {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  read(): unknown {
    const marker = this.buffer[this.offset++];
    if (marker === undefined) throw new RangeError('PackStream value truncated');
    if (marker < 0x80) return marker;
    if (marker >= 0xf0) return marker - 0x100;
    const high = marker & 0xf0;
    if (high === 0x80) return this.string(marker & 0x0f);
    if (high === 0x90) return this.list(marker & 0x0f);
    if (high === 0xa0) return this.map(marker & 0x0f);
    if (high === 0xb0) return this.structure(marker & 0x0f);
    switch (marker) {
      case 0xc0:
        return null;
      case 0xc1:
        return this.take(8).readDoubleBE(0);
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc8:
        return this.take(1).readInt8(0);
      case 0xc9:
        return this.take(2).readInt16BE(0);
      case 0xca:
        return this.take(4).readInt32BE(0);
      case 0xcb: {
        const value = this.take(8).readBigInt64BE(0);
        return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(value)
          : value;
      }
      case 0xcc:
        return Buffer.from(this.take(this.size(1)));
      case 0xcd:
        return Buffer.from(this.take(this.size(2)));
      case 0xce:
        return Buffer.from(this.take(this.size(4)));
      case 0xd0:
        return this.string(this.size(1));
      case 0xd1:
        return this.string(this.size(2));
      case 0xd2:
        return this.string(this.size(4));
      case 0xd4:
        return this.list(this.size(1));
      case 0xd5:
        return this.list(this.size(2));
      case 0xd6:
        return this.list(this.size(4));
      case 0xd8:
        return this.map(this.size(1));
      case 0xd9:
        return this.map(this.size(2));
      case 0xda:
        return this.map(this.size(4));
      default:
        throw new RangeError(`unknown PackStream marker 0x${marker.toString(16)}`);
    }
  }

  private take(length: number): Buffer {
    if (this.offset + length > this.buffer.length) throw new RangeError('PackStream value truncated');
    const slice = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }

  private size(bytes: 1 | 2 | 4): number {
    const slice = this.take(bytes);
    return bytes === 1 ? slice.readUInt8(0) : bytes === 2 ? slice.readUInt16BE(0) : slice.readUInt32BE(0);
  }

  private string(length: number): string {
    return this.take(length).toString('utf8');
  }

  private list(length: number): unknown[] {
    return Array.from({ length }, () => this.read());
  }

  private map(length: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (let index = 0; index < length; index++) {
      const key = this.read();
      result[String(key)] = this.read();
    }
    return result;
  }

  private structure(fieldCount: number): PackStreamStructure {
    const signature = this.take(1)[0]!;
    return structure(signature, this.list(fieldCount));
  }
}

/** Splits one encoded message into Bolt chunks (2-byte big-endian size, at most 65535 bytes each) and the 0x0000 end marker. */
export function chunkMessage(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += 0xffff) {
    const chunk = body.subarray(offset, offset + 0xffff);
    const header = Buffer.alloc(2);
    header.writeUInt16BE(chunk.length, 0);
    parts.push(header, chunk);
  }
  parts.push(Buffer.from([0, 0]));
  return Buffer.concat(parts);
}

/**
 * Reassembles chunked messages from a byte stream. `push` returns every message completed by the new bytes;
 * NOOP chunks (a lone 0x0000, sent as keep-alive) are dropped.
 */
export class ChunkedMessageReader {
  private pending = Buffer.alloc(0);
  private message: Buffer[] = [];

  push(data: Buffer): Buffer[] {
    this.pending = Buffer.concat([this.pending, data]);
    const completed: Buffer[] = [];
    while (this.pending.length >= 2) {
      const size = this.pending.readUInt16BE(0);
      if (size === 0) {
        this.pending = this.pending.subarray(2);
        if (this.message.length > 0) completed.push(Buffer.concat(this.message));
        this.message = [];
        continue;
      }
      if (this.pending.length < 2 + size) break;
      this.message.push(this.pending.subarray(2, 2 + size));
      this.pending = this.pending.subarray(2 + size);
    }
    return completed;
  }
}
