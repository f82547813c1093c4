// Primitive types of the Kafka protocol (https://kafka.apache.org/protocol#protocol_types), non-flexible
// encodings only: every request version the fake accepts predates the compact (flexible) formats.

/** Reads the primitive types of a request body, failing with a RangeError on a truncated buffer. */
export class KafkaReader {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  int8(): number {
    const value = this.buffer.readInt8(this.offset);
    this.offset += 1;
    return value;
  }

  int16(): number {
    const value = this.buffer.readInt16BE(this.offset);
    this.offset += 2;
    return value;
  }

  int32(): number {
    const value = this.buffer.readInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  boolean(): boolean {
    return this.int8() !== 0;
  }

  /** STRING / NULLABLE_STRING: INT16 length (-1 for null) then UTF-8 bytes. */
  nullableString(): string | null {
    const length = this.int16();
    if (length < 0) return null;
    return this.take(length).toString('utf8');
  }

  string(): string {
    return this.nullableString() ?? '';
  }

  /** BYTES: INT32 length then raw bytes. */
  bytes(): Buffer {
    const length = this.int32();
    return length < 0 ? Buffer.alloc(0) : this.take(length);
  }

  /** ARRAY / NULLABLE_ARRAY: INT32 count (-1 for null) then the items. */
  nullableArray<T>(item: (reader: KafkaReader) => T): T[] | null {
    const count = this.int32();
    if (count < 0) return null;
    const items: T[] = [];
    for (let index = 0; index < count; index++) items.push(item(this));
    return items;
  }

  get remaining(): number {
    return this.buffer.length - this.offset;
  }

  private take(length: number): Buffer {
    if (this.offset + length > this.buffer.length) throw new RangeError('truncated Kafka request');
    const slice = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }
}

/** Builds a response body from the protocol's primitive types. */
export class KafkaWriter {
  private readonly chunks: Buffer[] = [];

  int8(value: number): this {
    const chunk = Buffer.alloc(1);
    chunk.writeInt8(value);
    return this.push(chunk);
  }

  int16(value: number): this {
    const chunk = Buffer.alloc(2);
    chunk.writeInt16BE(value);
    return this.push(chunk);
  }

  int32(value: number): this {
    const chunk = Buffer.alloc(4);
    chunk.writeInt32BE(value);
    return this.push(chunk);
  }

  int64(value: bigint): this {
    const chunk = Buffer.alloc(8);
    chunk.writeBigInt64BE(value);
    return this.push(chunk);
  }

  boolean(value: boolean): this {
    return this.int8(value ? 1 : 0);
  }

  nullableString(value: string | null): this {
    if (value === null) return this.int16(-1);
    const bytes = Buffer.from(value, 'utf8');
    return this.int16(bytes.length).push(bytes);
  }

  string(value: string): this {
    return this.nullableString(value);
  }

  bytes(value: Buffer): this {
    return this.int32(value.length).push(value);
  }

  array<T>(items: readonly T[], item: (writer: this, value: T) => void): this {
    this.int32(items.length);
    for (const value of items) item(this, value);
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }

  private push(chunk: Buffer): this {
    this.chunks.push(chunk);
    return this;
  }
}

/** The API keys the fake knows by name (https://kafka.apache.org/protocol#protocol_api_keys). */
export const kafkaApiNames: Readonly<Record<number, string>> = {
  0: 'Produce',
  1: 'Fetch',
  2: 'ListOffsets',
  3: 'Metadata',
  8: 'OffsetCommit',
  9: 'OffsetFetch',
  10: 'FindCoordinator',
  11: 'JoinGroup',
  17: 'SaslHandshake',
  18: 'ApiVersions',
  19: 'CreateTopics',
  20: 'DeleteTopics',
  22: 'InitProducerId',
  36: 'SaslAuthenticate',
};

/** Error codes used by the fake (https://kafka.apache.org/protocol#protocol_error_codes). */
export const kafkaErrorCodes = {
  none: 0,
  unknownTopicOrPartition: 3,
  leaderNotAvailable: 5,
  unsupportedSaslMechanism: 33,
  illegalSaslState: 34,
  unsupportedVersion: 35,
  saslAuthenticationFailed: 58,
} as const;
