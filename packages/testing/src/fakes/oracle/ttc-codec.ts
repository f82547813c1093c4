// Encoding of Oracle's TTC layer (the messages carried in TNS DATA packets), as node-oracledb's thin driver reads
// and writes them: variable-length integers (a length byte, then big-endian bytes), byte strings prefixed with
// a length byte (or 0xFE and 4-byte chunks when longer than 252), and Oracle NUMBER values.

const LONG_LENGTH_INDICATOR = 0xfe;
const NULL_LENGTH_INDICATOR = 0xff;
const MAX_SHORT_LENGTH = 252;

/** Builds a TTC payload. */
export class TtcWriter {
  private readonly parts: Buffer[] = [];

  uint8(value: number): this {
    this.parts.push(Buffer.from([value & 0xff]));
    return this;
  }

  uint16BE(value: number): this {
    const buffer = Buffer.alloc(2);
    buffer.writeUInt16BE(value, 0);
    this.parts.push(buffer);
    return this;
  }

  uint16LE(value: number): this {
    const buffer = Buffer.alloc(2);
    buffer.writeUInt16LE(value, 0);
    this.parts.push(buffer);
    return this;
  }

  raw(bytes: Buffer): this {
    this.parts.push(bytes);
    return this;
  }

  /** UB2/UB4/UB8: 0 as one zero byte, otherwise the byte count then the big-endian value. */
  unsigned(value: number | bigint): this {
    const big = BigInt(value);
    if (big === 0n) return this.uint8(0);
    let hex = big.toString(16);
    if (hex.length % 2) hex = `0${hex}`;
    const bytes = Buffer.from(hex, 'hex');
    return this.uint8(bytes.length).raw(bytes);
  }

  /** SB2/SB4: as unsigned, with the high bit of the length byte set for a negative value. */
  signed(value: number): this {
    if (value >= 0) return this.unsigned(value);
    const bytes = Buffer.from(((-value).toString(16).length % 2 ? '0' : '') + (-value).toString(16), 'hex');
    return this.uint8(0x80 | bytes.length).raw(bytes);
  }

  /** A length byte and the bytes, or the chunked form beyond 252 bytes; null writes the null indicator. */
  bytesWithLength(value: Buffer | null): this {
    if (value === null) return this.uint8(NULL_LENGTH_INDICATOR);
    if (value.length <= MAX_SHORT_LENGTH) return this.uint8(value.length).raw(value);
    this.uint8(LONG_LENGTH_INDICATOR);
    for (let offset = 0; offset < value.length; offset += 65536) {
      const chunk = value.subarray(offset, offset + 65536);
      this.unsigned(chunk.length).raw(chunk);
    }
    return this.unsigned(0);
  }

  /** A string as the driver reads one with its length announced first (UB4 byte count, then the bytes). */
  stringWithCount(value: string): this {
    const bytes = Buffer.from(value, 'utf8');
    this.unsigned(bytes.length);
    return bytes.length > 0 ? this.bytesWithLength(bytes) : this;
  }

  /** One key/value pair of a PARAMETER message (session data). */
  keyValue(key: string, value: string, flags = 0): this {
    this.stringWithCount(key);
    return this.stringWithCount(value).unsigned(flags);
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** Reads a TTC payload the client sent. Throws RangeError past the end. */
export class TtcReader {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  get remaining(): number {
    return this.buffer.length - this.offset;
  }

  uint8(): number {
    if (this.offset >= this.buffer.length) throw new RangeError('TTC message truncated');
    return this.buffer[this.offset++]!;
  }

  bytes(length: number): Buffer {
    if (this.offset + length > this.buffer.length) throw new RangeError('TTC message truncated');
    const slice = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }

  unsigned(): number {
    const size = this.uint8() & 0x7f;
    if (size === 0) return 0;
    return Number(BigInt(`0x${this.bytes(size).toString('hex')}`));
  }

  bytesWithLength(): Buffer | null {
    const length = this.uint8();
    if (length === 0 || length === NULL_LENGTH_INDICATOR) return null;
    if (length !== LONG_LENGTH_INDICATOR) return Buffer.from(this.bytes(length));
    const chunks: Buffer[] = [];
    for (let chunk = this.unsigned(); chunk > 0; chunk = this.unsigned())
      chunks.push(Buffer.from(this.bytes(chunk)));
    return Buffer.concat(chunks);
  }

  /** The key/value pairs the driver writes with writeKeyValue. */
  keyValues(count: number): Map<string, string> {
    const pairs = new Map<string, string>();
    for (let index = 0; index < count; index++) {
      const key = this.unsigned() > 0 ? (this.bytesWithLength()?.toString('utf8') ?? '') : '';
      const value = this.unsigned() > 0 ? (this.bytesWithLength()?.toString('utf8') ?? '') : '';
      this.unsigned();
      pairs.set(key, value);
    }
    return pairs;
  }
}

/** An integer in Oracle's NUMBER format: exponent byte, then base-100 digits (+1, or 101-d when negative). */
export function oracleNumber(value: number): Buffer {
  if (!Number.isSafeInteger(value)) throw new RangeError('the fake encodes integer NUMBER values only');
  if (value === 0) return Buffer.from([0x80]);
  const negative = value < 0;
  const digits: number[] = [];
  for (let rest = Math.abs(value); rest > 0; rest = Math.floor(rest / 100)) digits.unshift(rest % 100);
  const exponent = digits.length - 1;
  while (digits.length > 1 && digits[digits.length - 1] === 0) digits.pop();
  if (!negative) return Buffer.from([193 + exponent, ...digits.map((digit) => digit + 1)]);
  const mantissa = digits.map((digit) => 101 - digit);
  return Buffer.from([(193 + exponent) ^ 0xff, ...mantissa, ...(mantissa.length < 20 ? [102] : [])]);
}
