// TDS 7.4 building blocks for the fake SQL Server, from the [MS-TDS] specification
// (https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-tds/): packet framing, the token stream
// encodings the fake answers with, and the LOGIN7 fields it reads.

/** Packet types of the TDS packet header (MS-TDS 2.2.3.1.1). */
export const PacketType = {
  SqlBatch: 0x01,
  Tabular: 0x04,
  Attention: 0x06,
  Login7: 0x10,
  Prelogin: 0x12,
} as const;

const HEADER_LENGTH = 8;
const STATUS_END_OF_MESSAGE = 0x01;

/** Wraps a whole message into packets of at most `packetSize` bytes, the last one marked end-of-message. */
export function framePackets(type: number, payload: Buffer, packetSize = 4096): Buffer {
  const chunkSize = packetSize - HEADER_LENGTH;
  const packets: Buffer[] = [];
  let packetId = 1;
  for (let offset = 0; offset === 0 || offset < payload.length; offset += chunkSize) {
    const chunk = payload.subarray(offset, offset + chunkSize);
    const header = Buffer.alloc(HEADER_LENGTH);
    header[0] = type;
    header[1] = offset + chunkSize >= payload.length ? STATUS_END_OF_MESSAGE : 0;
    header.writeUInt16BE(HEADER_LENGTH + chunk.length, 2);
    header.writeUInt16BE(0, 4);
    header[6] = packetId++ & 0xff;
    packets.push(header, chunk);
  }
  return Buffer.concat(packets);
}

/** Reassembles messages from packets; `push` returns every message completed by the new bytes. */
export class TdsMessageReader {
  private pending = Buffer.alloc(0);
  private parts: Buffer[] = [];
  private type = 0;

  push(data: Buffer): { type: number; payload: Buffer }[] {
    this.pending = Buffer.concat([this.pending, data]);
    const messages: { type: number; payload: Buffer }[] = [];
    while (this.pending.length >= HEADER_LENGTH) {
      const length = this.pending.readUInt16BE(2);
      if (length < HEADER_LENGTH) throw new RangeError('TDS packet length below header size');
      if (this.pending.length < length) break;
      if (this.parts.length === 0) this.type = this.pending[0]!;
      this.parts.push(this.pending.subarray(HEADER_LENGTH, length));
      const endOfMessage = (this.pending[1]! & STATUS_END_OF_MESSAGE) !== 0;
      this.pending = this.pending.subarray(length);
      if (endOfMessage) {
        messages.push({ type: this.type, payload: Buffer.concat(this.parts) });
        this.parts = [];
      }
    }
    return messages;
  }
}

function ucs2(value: string): Buffer {
  return Buffer.from(value, 'utf16le');
}

/** B_VARCHAR: a one-byte character count, then UTF-16LE. */
export function byteLengthString(value: string): Buffer {
  return Buffer.concat([Buffer.from([value.length]), ucs2(value)]);
}

/** US_VARCHAR: a two-byte character count, then UTF-16LE. */
export function shortLengthString(value: string): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16LE(value.length, 0);
  return Buffer.concat([length, ucs2(value)]);
}

function withShortLength(token: number, body: Buffer): Buffer {
  const header = Buffer.alloc(3);
  header[0] = token;
  header.writeUInt16LE(body.length, 1);
  return Buffer.concat([header, body]);
}

/** ENVCHANGE (0xE3) with string values: 1 database, 2 language, 4 packet size. */
export function environmentChange(type: number, newValue: string, oldValue: string): Buffer {
  return withShortLength(
    0xe3,
    Buffer.concat([Buffer.from([type]), byteLengthString(newValue), byteLengthString(oldValue)]),
  );
}

/** ENVCHANGE type 7: the SQL collation (5 bytes), old value empty. */
export function collationChange(collation: Buffer): Buffer {
  return withShortLength(
    0xe3,
    Buffer.concat([Buffer.from([7, collation.length]), collation, Buffer.from([0])]),
  );
}

/** INFO (0xAB) or ERROR (0xAA) token. */
export function message(
  kind: 'info' | 'error',
  fields: { number: number; state: number; severity: number; text: string; serverName: string },
): Buffer {
  const head = Buffer.alloc(6);
  head.writeUInt32LE(fields.number, 0);
  head[4] = fields.state;
  head[5] = fields.severity;
  const lineNumber = Buffer.alloc(4);
  lineNumber.writeUInt32LE(1, 0);
  const body = Buffer.concat([
    head,
    shortLengthString(fields.text),
    byteLengthString(fields.serverName),
    byteLengthString(''),
    lineNumber,
  ]);
  return withShortLength(kind === 'error' ? 0xaa : 0xab, body);
}

/** LOGINACK (0xAD): SQL_TSQL interface, TDS 7.4, program name and version. */
export function loginAcknowledgement(
  programName: string,
  version: readonly [number, number, number],
): Buffer {
  const tdsVersion = Buffer.alloc(4);
  tdsVersion.writeUInt32BE(0x74000004, 0);
  const programVersion = Buffer.from([version[0], version[1], (version[2] >> 8) & 0xff, version[2] & 0xff]);
  return withShortLength(
    0xad,
    Buffer.concat([Buffer.from([1]), tdsVersion, byteLengthString(programName), programVersion]),
  );
}

export const DoneStatus = {
  Final: 0x0000,
  More: 0x0001,
  Error: 0x0002,
  Count: 0x0010,
  Attention: 0x0020,
} as const;

/** DONE (0xFD): status, current command, 64-bit row count. */
export function done(status: number, command = 0, rowCount = 0): Buffer {
  const token = Buffer.alloc(13);
  token[0] = 0xfd;
  token.writeUInt16LE(status, 1);
  token.writeUInt16LE(command, 3);
  token.writeBigUInt64LE(BigInt(rowCount), 5);
  return token;
}

/** Latin1_General_CI_AS, LCID 0x0409, as SQL Server reports it in ENVCHANGE and column metadata. */
export const DEFAULT_COLLATION = Buffer.from([0x09, 0x04, 0xd0, 0x00, 0x34]);

/** A result cell: integers go out as INTN(4) (or INTN(8) beyond 32 bits), anything else as NVARCHAR(4000). */
export type TdsValue = number | string | null;

function isInteger(value: TdsValue): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** COLMETADATA (0x81) for one result set whose column types follow the first row's values. */
export function columnMetadata(columns: readonly string[], sample: readonly TdsValue[]): Buffer {
  const count = Buffer.alloc(3);
  count[0] = 0x81;
  count.writeUInt16LE(columns.length, 1);
  const parts: Buffer[] = [count];
  columns.forEach((name, index) => {
    const userTypeAndFlags = Buffer.from([0, 0, 0, 0, 0x01, 0x00]); // user type 0; flags: nullable
    const value = sample[index] ?? null;
    const typeInfo = isInteger(value)
      ? Buffer.from([0x26, Math.abs(value) > 0x7fffffff ? 8 : 4])
      : Buffer.concat([Buffer.from([0xe7, 0x40, 0x1f]), DEFAULT_COLLATION]); // NVARCHAR(4000): max 8000 bytes
    parts.push(userTypeAndFlags, typeInfo, byteLengthString(name));
  });
  return Buffer.concat(parts);
}

/** ROW (0xD1) matching `columnMetadata(columns, sample)`. */
export function row(values: readonly TdsValue[], sample: readonly TdsValue[]): Buffer {
  const parts: Buffer[] = [Buffer.from([0xd1])];
  values.forEach((value, index) => {
    const template = sample[index] ?? null;
    if (isInteger(template)) {
      const size = Math.abs(template) > 0x7fffffff ? 8 : 4;
      if (value === null) {
        parts.push(Buffer.from([0]));
        return;
      }
      const cell = Buffer.alloc(1 + size);
      cell[0] = size;
      if (size === 4) cell.writeInt32LE(Number(value), 1);
      else cell.writeBigInt64LE(BigInt(value), 1);
      parts.push(cell);
      return;
    }
    if (value === null) {
      parts.push(Buffer.from([0xff, 0xff]));
      return;
    }
    const text = ucs2(String(value));
    const length = Buffer.alloc(2);
    length.writeUInt16LE(text.length, 0);
    parts.push(length, text);
  });
  return Buffer.concat(parts);
}

/** The LOGIN7 fields the fake needs (MS-TDS 2.2.6.4); the password is unscrambled for comparison only. */
export interface Login7Fields {
  readonly tdsVersion: number;
  readonly hostName: string;
  readonly userName: string;
  readonly password: string;
  readonly appName: string;
  readonly serverName: string;
  readonly database: string;
}

export function parseLogin7(payload: Buffer): Login7Fields {
  const field = (position: number) => {
    const offset = payload.readUInt16LE(position);
    const characters = payload.readUInt16LE(position + 2);
    return payload.subarray(offset, offset + characters * 2);
  };
  const passwordBytes = Buffer.from(field(44));
  for (let index = 0; index < passwordBytes.length; index++) {
    const byte = passwordBytes[index]! ^ 0xa5;
    passwordBytes[index] = ((byte & 0x0f) << 4) | (byte >> 4);
  }
  return {
    tdsVersion: payload.readUInt32LE(4),
    hostName: field(36).toString('utf16le'),
    userName: field(40).toString('utf16le'),
    password: passwordBytes.toString('utf16le'),
    appName: field(48).toString('utf16le'),
    serverName: field(52).toString('utf16le'),
    database: field(68).toString('utf16le'),
  };
}

/** The SQL text of a SQL batch: skips ALL_HEADERS (its first DWORD is its total length), then UTF-16LE. */
export function parseSqlBatch(payload: Buffer): string {
  const headersLength = payload.length >= 4 ? payload.readUInt32LE(0) : 0;
  const start = headersLength >= 4 && headersLength <= payload.length ? headersLength : 0;
  return payload.subarray(start).toString('utf16le');
}

/** PRELOGIN option list (MS-TDS 2.2.6.5): token, offset, length entries, a 0xFF terminator, then the data. */
export function preloginOptions(options: readonly { token: number; data: Buffer }[]): Buffer {
  const tableLength = options.length * 5 + 1;
  const table = Buffer.alloc(tableLength);
  let dataOffset = tableLength;
  options.forEach((option, index) => {
    table[index * 5] = option.token;
    table.writeUInt16BE(dataOffset, index * 5 + 1);
    table.writeUInt16BE(option.data.length, index * 5 + 3);
    dataOffset += option.data.length;
  });
  table[tableLength - 1] = 0xff;
  return Buffer.concat([table, ...options.map((option) => option.data)]);
}

/** Reads one PRELOGIN option's data by token, or undefined. */
export function preloginOption(payload: Buffer, token: number): Buffer | undefined {
  for (let offset = 0; offset + 5 <= payload.length && payload[offset] !== 0xff; offset += 5) {
    if (payload[offset] === token) {
      const start = payload.readUInt16BE(offset + 1);
      return payload.subarray(start, start + payload.readUInt16BE(offset + 3));
    }
  }
  return undefined;
}
