/**
 * A reader of the protobuf binary wire format (protobuf.dev "Encoding"): enough for fakes that decode a
 * known message by field number without generated code. Each field is a tag varint `(number << 3) | type`
 * followed by a varint (type 0), 8 bytes (type 1), a length-prefixed byte run (type 2) or 4 bytes (type 5).
 */
export interface WireField {
  readonly number: number;
  readonly type: 0 | 1 | 2 | 5;
  /** Type 0: the varint; types 1 and 5: the little-endian bytes; type 2: the byte run. */
  readonly varint?: bigint;
  readonly bytes?: Buffer;
}

function readVarint(buffer: Buffer, offset: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  let position = offset;
  for (;;) {
    if (position >= buffer.length) throw new Error('protobuf: truncated varint');
    const byte = buffer[position++]!;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [result, position];
    shift += 7n;
  }
}

/** Every field of one message, in wire order (a repeated field appears once per element). */
export function readWireFields(buffer: Buffer): WireField[] {
  const fields: WireField[] = [];
  let offset = 0;
  while (offset < buffer.length) {
    const [tag, afterTag] = readVarint(buffer, offset);
    const number = Number(tag >> 3n);
    const type = Number(tag & 7n);
    offset = afterTag;
    if (type === 0) {
      const [value, next] = readVarint(buffer, offset);
      fields.push({ number, type, varint: value });
      offset = next;
    } else if (type === 1 || type === 5) {
      const size = type === 1 ? 8 : 4;
      fields.push({ number, type, bytes: buffer.subarray(offset, offset + size) });
      offset += size;
    } else if (type === 2) {
      const [length, next] = readVarint(buffer, offset);
      const end = next + Number(length);
      if (end > buffer.length) throw new Error('protobuf: truncated length-delimited field');
      fields.push({ number, type, bytes: buffer.subarray(next, end) });
      offset = end;
    } else {
      throw new Error(`protobuf: unsupported wire type ${type} for field ${number}`);
    }
  }
  return fields;
}

/** Typed access to one decoded message by field number. */
export class WireMessage {
  private readonly fields: WireField[];
  constructor(buffer: Buffer) {
    this.fields = readWireFields(buffer);
  }
  private all(number: number): WireField[] {
    return this.fields.filter((field) => field.number === number);
  }
  has(number: number): boolean {
    return this.all(number).length > 0;
  }
  string(number: number): string | undefined {
    const field = this.all(number).at(-1);
    return field?.bytes?.toString('utf8');
  }
  bytes(number: number): Buffer | undefined {
    return this.all(number).at(-1)?.bytes;
  }
  /** A varint field (uint64/int64/enum/bool) as a number; int64 values fit the tests' ranges. */
  integer(number: number): number | undefined {
    const value = this.all(number).at(-1)?.varint;
    return value === undefined ? undefined : Number(BigInt.asIntN(64, value));
  }
  /** A `double` (wire type 1) field. */
  double(number: number): number | undefined {
    return this.all(number).at(-1)?.bytes?.readDoubleLE(0);
  }
  /** A `fixed64`/`sfixed64` (wire type 1) field. */
  fixed64(number: number): bigint | undefined {
    return this.all(number).at(-1)?.bytes?.readBigUInt64LE(0);
  }
  /** Every element of a repeated message field. */
  messages(number: number): WireMessage[] {
    return this.all(number).map((field) => new WireMessage(field.bytes ?? Buffer.alloc(0)));
  }
  message(number: number): WireMessage | undefined {
    return this.messages(number).at(-1);
  }
}
