// Cassandra native protocol v4 notation (native_protocol_v4.spec, section 3) and frame layout (section 2):
// version, flags, stream (signed short), opcode, body length, then the body.
import net from 'node:net';

export const opcodes = {
  error: 0x00,
  startup: 0x01,
  ready: 0x02,
  authenticate: 0x03,
  options: 0x05,
  supported: 0x06,
  query: 0x07,
  result: 0x08,
  prepare: 0x09,
  execute: 0x0a,
  register: 0x0b,
  event: 0x0c,
  batch: 0x0d,
  authChallenge: 0x0e,
  authResponse: 0x0f,
  authSuccess: 0x10,
} as const;

export const opcodeNames: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(opcodes).map(([name, code]) => [
    code,
    name.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase(),
  ]),
);

/** Error codes of section 9 used by the fake. */
export const errorCodes = {
  serverError: 0x0000,
  protocolError: 0x000a,
  badCredentials: 0x0100,
  syntaxError: 0x2000,
  invalid: 0x2200,
} as const;

export const frameHeaderLength = 9;

export interface Frame {
  version: number;
  flags: number;
  stream: number;
  opcode: number;
  body: Buffer;
}

/** Splits a byte stream into frames; null until a whole frame has arrived. */
export function takeFrame(buffer: Buffer): { frame: Frame; rest: Buffer } | null {
  if (buffer.length < frameHeaderLength) return null;
  const length = buffer.readInt32BE(5);
  if (buffer.length < frameHeaderLength + length) return null;
  return {
    frame: {
      version: buffer.readUInt8(0),
      flags: buffer.readUInt8(1),
      stream: buffer.readInt16BE(2),
      opcode: buffer.readUInt8(4),
      body: buffer.subarray(frameHeaderLength, frameHeaderLength + length),
    },
    rest: buffer.subarray(frameHeaderLength + length),
  };
}

/** A response frame: the version byte carries the response direction bit (0x80). */
export function encodeFrame(version: number, stream: number, opcode: number, body: Buffer): Buffer {
  const header = Buffer.alloc(frameHeaderLength);
  header.writeUInt8(0x80 | version, 0);
  header.writeUInt8(0, 1);
  header.writeInt16BE(stream, 2);
  header.writeUInt8(opcode, 4);
  header.writeInt32BE(body.length, 5);
  return Buffer.concat([header, body]);
}

/** Reads the notation types of a request body. */
export class CqlReader {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  byte(): number {
    return this.buffer.readUInt8(this.offset++);
  }

  short(): number {
    const value = this.buffer.readUInt16BE(this.offset);
    this.offset += 2;
    return value;
  }

  int(): number {
    const value = this.buffer.readInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  string(): string {
    return this.take(this.short()).toString('utf8');
  }

  longString(): string {
    return this.take(this.int()).toString('utf8');
  }

  bytes(): Buffer | null {
    const length = this.int();
    return length < 0 ? null : this.take(length);
  }

  stringList(): string[] {
    return Array.from({ length: this.short() }, () => this.string());
  }

  stringMap(): Record<string, string> {
    const map: Record<string, string> = {};
    for (let count = this.short(); count > 0; count--) map[this.string()] = this.string();
    return map;
  }

  private take(length: number): Buffer {
    if (this.offset + length > this.buffer.length) throw new RangeError('truncated CQL frame body');
    const slice = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }
}

/** Writes the notation types of a response body. */
export class CqlWriter {
  private readonly chunks: Buffer[] = [];

  short(value: number): this {
    const chunk = Buffer.alloc(2);
    chunk.writeUInt16BE(value);
    return this.push(chunk);
  }

  int(value: number): this {
    const chunk = Buffer.alloc(4);
    chunk.writeInt32BE(value);
    return this.push(chunk);
  }

  string(value: string): this {
    const bytes = Buffer.from(value, 'utf8');
    return this.short(bytes.length).push(bytes);
  }

  bytes(value: Buffer | null): this {
    if (value === null) return this.int(-1);
    return this.int(value.length).push(value);
  }

  stringList(values: readonly string[]): this {
    this.short(values.length);
    for (const value of values) this.string(value);
    return this;
  }

  stringMultimap(map: Readonly<Record<string, readonly string[]>>): this {
    const entries = Object.entries(map);
    this.short(entries.length);
    for (const [key, values] of entries) this.string(key).stringList(values);
    return this;
  }

  raw(value: Buffer): this {
    return this.push(value);
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }

  private push(chunk: Buffer): this {
    this.chunks.push(chunk);
    return this;
  }
}

/** CQL column types the fake can serialize (section 6: [option] ids). */
export type CqlType =
  | 'ascii'
  | 'bigint'
  | 'blob'
  | 'boolean'
  | 'int'
  | 'text'
  | 'timestamp'
  | 'uuid'
  | 'inet'
  | { list: CqlType }
  | { set: CqlType }
  | { map: [CqlType, CqlType] };

const typeIds: Record<string, number> = {
  ascii: 0x0001,
  bigint: 0x0002,
  blob: 0x0003,
  boolean: 0x0004,
  int: 0x0009,
  timestamp: 0x000b,
  uuid: 0x000c,
  text: 0x000d,
  inet: 0x0010,
};

/** Writes a column type as an [option]. */
export function writeType(writer: CqlWriter, type: CqlType): void {
  if (typeof type === 'string') {
    writer.short(typeIds[type]);
  } else if ('list' in type) {
    writer.short(0x0020);
    writeType(writer, type.list);
  } else if ('set' in type) {
    writer.short(0x0022);
    writeType(writer, type.set);
  } else {
    writer.short(0x0021);
    writeType(writer, type.map[0]);
    writeType(writer, type.map[1]);
  }
}

/** Serializes one cell value ([bytes] content, null for a missing value). */
export function serializeValue(type: CqlType, value: unknown): Buffer | null {
  if (value === null || value === undefined) return null;
  if (typeof type !== 'string') {
    const collection = new CqlWriter();
    if ('map' in type) {
      const entries = Object.entries(value as Record<string, unknown>);
      collection.int(entries.length);
      for (const [key, item] of entries) {
        collection.bytes(serializeValue(type.map[0], key)).bytes(serializeValue(type.map[1], item));
      }
    } else {
      const items = value as readonly unknown[];
      collection.int(items.length);
      for (const item of items) collection.bytes(serializeValue('list' in type ? type.list : type.set, item));
    }
    return collection.toBuffer();
  }
  switch (type) {
    case 'ascii':
    case 'text':
      return Buffer.from(String(value), 'utf8');
    case 'blob':
      return Buffer.from(value as Uint8Array);
    case 'boolean':
      return Buffer.from([value ? 1 : 0]);
    case 'int': {
      const buffer = Buffer.alloc(4);
      buffer.writeInt32BE(Number(value));
      return buffer;
    }
    case 'bigint':
    case 'timestamp': {
      const buffer = Buffer.alloc(8);
      buffer.writeBigInt64BE(BigInt(value instanceof Date ? value.getTime() : (value as number | bigint)));
      return buffer;
    }
    case 'uuid':
      return Buffer.from(String(value).replace(/-/g, ''), 'hex');
    case 'inet':
      return inetBytes(String(value));
  }
}

function inetBytes(address: string): Buffer {
  if (net.isIPv4(address)) return Buffer.from(address.split('.').map(Number));
  // IPv6: expand '::' then write eight 16-bit groups.
  const [head, tail = ''] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = [
    ...headGroups,
    ...Array(8 - headGroups.length - tailGroups.length).fill('0'),
    ...tailGroups,
  ];
  const buffer = Buffer.alloc(16);
  groups.forEach((group, index) => buffer.writeUInt16BE(parseInt(group, 16), index * 2));
  return buffer;
}
