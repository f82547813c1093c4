// The database side of one fake Oracle session, after the listener accepted the connection: the TTC requests
// node-oracledb's thin driver sends (protocol and data-type negotiation, the two O5LOGON phases, execute,
// logoff) and the answers it expects, laid out as that driver reads them. The session announces TTC field
// version 8 (12.2), which fixes which optional fields each message carries.
import { O5LogonExchange } from './o5logon';
import { TtcReader, TtcWriter, oracleNumber } from './ttc-codec';

const MessageType = {
  Protocol: 1,
  DataTypes: 2,
  Function: 3,
  Error: 4,
  RowHeader: 6,
  RowData: 7,
  Parameter: 8,
  Status: 9,
  DescribeInfo: 16,
  Piggyback: 17,
} as const;
const FunctionCode = {
  AuthPhaseOne: 118,
  AuthPhaseTwo: 115,
  Execute: 94,
  Fetch: 5,
  Logoff: 9,
  Ping: 147,
  Commit: 14,
  Rollback: 15,
} as const;

const TTC_FIELD_VERSION = 8;
const DATA_TYPE_VARCHAR = 1;
const DATA_TYPE_NUMBER = 2;
const CHARSET_AL32UTF8 = 873;

/** A query result: column names and rows of integers or strings. */
export interface OracleResult {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (number | string | null)[])[];
}

export interface OracleSessionOptions {
  readonly credentials?: { readonly username: string; readonly password: string };
  readonly result: OracleResult;
  readonly queryFailure?: { readonly code: number; readonly message: string };
  readonly serviceName: string;
  /** Major version reported in AUTH_VERSION_NO (default 19). */
  readonly serverMajorVersion: number;
  readonly hangOnQuery: boolean;
}

/** What the session reports back to the server's record. */
export interface OracleSessionEvents {
  onLogin(username: string, accepted: boolean): void;
  onQuery(sql: string): void;
}

/** The ERROR message (end-of-call info) for TTC field version 8: `code` 0 ends a call without error. */
function errorMessage(code: number, message: string, cursorId: number, rowCount: number): Buffer {
  const writer = new TtcWriter().uint8(MessageType.Error);
  writer.unsigned(0).unsigned(0).unsigned(0); // call status, end-to-end sequence, current row
  writer
    .unsigned(code > 0xffff ? 0 : code)
    .unsigned(0)
    .unsigned(0); // error number, array element errors
  writer.unsigned(cursorId).signed(code === 0 || code === 1403 ? 0 : -1); // cursor id, error position
  writer.uint8(0).uint8(0).uint8(0).uint8(0).uint8(0).uint8(0); // sql type, fatal, flags, cursor options, UPI, warning
  writer.unsigned(0).unsigned(0).uint8(0).unsigned(0).unsigned(0); // rowid: rba, partition, (skipped), block, slot
  writer.unsigned(0).uint8(0).uint8(0).unsigned(0).unsigned(0); // OS error, statement error, call number, padding, success iterations
  writer.unsigned(0).unsigned(0).unsigned(0).unsigned(0); // oerrdd, batch error codes, offsets, messages
  writer.unsigned(code).unsigned(rowCount);
  if (code !== 0) writer.bytesWithLength(Buffer.from(`${message}\n`, 'utf8'));
  return writer.toBuffer();
}

function status(): Buffer {
  return new TtcWriter().uint8(MessageType.Status).unsigned(0).unsigned(0).toBuffer();
}

function parameters(pairs: readonly [string, string, number][]): Buffer {
  const writer = new TtcWriter().uint8(MessageType.Parameter).unsigned(pairs.length);
  for (const [key, value, flags] of pairs) writer.keyValue(key, value, flags);
  return writer.toBuffer();
}

function protocolAnswer(): Buffer {
  const compileCaps = Buffer.alloc(53);
  compileCaps[7] = TTC_FIELD_VERSION;
  const runtimeCaps = Buffer.alloc(7);
  runtimeCaps[0] = 2; // TNS_RCAP_COMPAT_81
  runtimeCaps[6] = 0x04; // 32K strings
  const characterSets = Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0x07, 0xd0]); // national character set AL16UTF16 (2000)
  return new TtcWriter()
    .uint8(MessageType.Protocol)
    .uint8(6)
    .uint8(0)
    .raw(Buffer.from('x86_64/Linux 2.4.xx\0', 'ascii'))
    .uint16LE(CHARSET_AL32UTF8)
    .uint8(1)
    .uint16LE(0)
    .uint16BE(characterSets.length)
    .raw(characterSets)
    .bytesWithLength(compileCaps)
    .bytesWithLength(runtimeCaps)
    .toBuffer();
}

function describe(result: OracleResult): Buffer {
  const sample = result.rows[0] ?? [];
  const writer = new TtcWriter().uint8(MessageType.DescribeInfo).uint8(0);
  writer.unsigned(100).unsigned(result.columns.length);
  if (result.columns.length > 0) writer.uint8(0);
  result.columns.forEach((name, index) => {
    const isNumber = typeof sample[index] !== 'string';
    writer
      .uint8(isNumber ? DATA_TYPE_NUMBER : DATA_TYPE_VARCHAR)
      .uint8(0)
      .uint8(0)
      .uint8(0); // type, flags, precision, scale
    writer
      .unsigned(isNumber ? 22 : 4000)
      .unsigned(0)
      .unsigned(0)
      .unsigned(0); // max size, array elements, cont flags, OID
    writer
      .unsigned(0)
      .unsigned(isNumber ? 0 : CHARSET_AL32UTF8)
      .uint8(isNumber ? 0 : 1); // version, charset, charset form
    writer.unsigned(isNumber ? 0 : 4000).unsigned(0); // size, oaccolid (12.2)
    writer.uint8(1).uint8(0).stringWithCount(name).unsigned(0).unsigned(0); // nullable, v7 name length, name, schema, type name
    writer.unsigned(index + 1).unsigned(0); // position, UDS flags
  });
  writer.unsigned(0).unsigned(0).unsigned(0).unsigned(0).unsigned(0).unsigned(0); // current date, dcb fields, trailing bytes
  return writer.toBuffer();
}

function rows(result: OracleResult): Buffer {
  const writer = new TtcWriter().uint8(MessageType.RowHeader);
  writer.uint8(0).unsigned(0).unsigned(0).unsigned(result.rows.length).unsigned(0).unsigned(0).unsigned(0);
  for (const row of result.rows) {
    writer.uint8(MessageType.RowData);
    for (const value of row) {
      if (value === null) writer.uint8(0);
      else if (typeof value === 'number') writer.bytesWithLength(oracleNumber(value));
      else writer.bytesWithLength(Buffer.from(value, 'utf8'));
    }
  }
  return writer.toBuffer();
}

/** Reads the username and the key/value pairs of an O5LOGON request (both phases share the layout). */
function readAuthRequest(reader: TtcReader): { username: string; pairs: Map<string, string> } {
  reader.uint8(); // user present
  reader.unsigned(); // user byte length
  reader.unsigned(); // auth mode
  reader.uint8();
  const count = reader.unsigned();
  reader.uint8();
  reader.uint8();
  const username = reader.bytesWithLength()?.toString('utf8') ?? '';
  return { username, pairs: reader.keyValues(count) };
}

/** Reads the SQL text of a first execute (cursor 0), following the layout of the driver's execute message. */
function readExecuteSql(reader: TtcReader): string {
  reader.unsigned(); // options
  const cursorId = reader.unsigned();
  reader.uint8();
  reader.unsigned(); // SQL length
  reader.uint8();
  reader.unsigned(); // al8i4 length
  reader.uint8();
  reader.uint8();
  reader.uint8();
  reader.unsigned(); // prefetch rows
  reader.unsigned(); // max long size
  reader.uint8();
  reader.unsigned(); // binds
  for (let index = 0; index < 5; index++) reader.uint8();
  reader.uint8();
  reader.unsigned(); // defines
  reader.unsigned(); // registration id
  reader.uint8();
  reader.uint8();
  reader.uint8();
  reader.unsigned();
  reader.uint8();
  reader.unsigned();
  reader.unsigned();
  reader.uint8();
  reader.unsigned();
  reader.uint8();
  reader.uint8(); // 12.2: SQL signature pointer
  reader.unsigned();
  reader.uint8();
  reader.unsigned();
  reader.uint8();
  if (cursorId !== 0) throw new RangeError('re-executing an open cursor is not supported by this fake');
  return reader.bytesWithLength()?.toString('utf8') ?? '';
}

export class OracleSession {
  private exchange: O5LogonExchange | undefined;
  private username = '';

  constructor(
    private readonly options: OracleSessionOptions,
    private readonly events: OracleSessionEvents,
  ) {}

  /** Answers one request; `undefined` means no answer (a hung query); `close` ends the connection after the reply. */
  handle(payload: Buffer): { reply?: Buffer; close?: boolean } {
    const reader = new TtcReader(payload);
    const type = reader.uint8();
    if (type === MessageType.Protocol) return { reply: protocolAnswer() };
    if (type === MessageType.DataTypes)
      return { reply: new TtcWriter().uint8(MessageType.DataTypes).uint16BE(0).toBuffer() };
    if (type !== MessageType.Function)
      throw new RangeError(`TTC message type ${type} is not supported by this fake`);
    const functionCode = reader.uint8();
    reader.uint8(); // sequence number
    switch (functionCode) {
      case FunctionCode.AuthPhaseOne:
        return { reply: this.authPhaseOne(reader) };
      case FunctionCode.AuthPhaseTwo:
        return this.authPhaseTwo(reader);
      case FunctionCode.Execute:
        return this.execute(reader);
      case FunctionCode.Logoff:
      case FunctionCode.Ping:
      case FunctionCode.Commit:
      case FunctionCode.Rollback:
        return { reply: status() };
      default:
        return {
          reply: errorMessage(
            3115,
            `ORA-03115: unsupported network datatype or representation (function ${functionCode})`,
            0,
            0,
          ),
        };
    }
  }

  private authPhaseOne(reader: TtcReader): Buffer {
    const { username } = readAuthRequest(reader);
    this.username = username;
    this.exchange = new O5LogonExchange(this.options.credentials?.password ?? '');
    return Buffer.concat([parameters(this.exchange.phaseOne()), status()]);
  }

  private authPhaseTwo(reader: TtcReader): { reply: Buffer; close?: boolean } {
    const { pairs } = readAuthRequest(reader);
    const expected = this.options.credentials;
    const proof = this.exchange?.phaseTwo(
      pairs.get('AUTH_SESSKEY') ?? '',
      pairs.get('AUTH_PASSWORD') ?? '',
      expected?.password ?? '',
    );
    const accepted =
      proof !== undefined && (!expected || this.username.toUpperCase() === expected.username.toUpperCase());
    this.events.onLogin(this.username, accepted);
    if (!accepted)
      return {
        reply: errorMessage(1017, 'ORA-01017: invalid credential or not authorized; logon denied', 0, 0),
      };
    const session: [string, string, number][] = [
      ['AUTH_VERSION_NO', String((this.options.serverMajorVersion << 24) >>> 0), 0],
      ['AUTH_SESSION_ID', '42', 0],
      ['AUTH_SERIAL_NUM', '4242', 0],
      ['AUTH_SVR_RESPONSE', proof, 0],
      ['AUTH_DBNAME', 'FAKEDB', 0],
      ['AUTH_SC_SERVICE_NAME', this.options.serviceName, 0],
      ['AUTH_INSTANCENAME', 'FAKE', 0],
      ['AUTH_MAX_OPEN_CURSORS', '300', 0],
      ['AUTH_MAX_IDEN_LENGTH', '128', 0],
    ];
    return { reply: Buffer.concat([parameters(session), status()]) };
  }

  private execute(reader: TtcReader): { reply?: Buffer } {
    const sql = readExecuteSql(reader);
    this.events.onQuery(sql);
    if (this.options.hangOnQuery) return {};
    const failure = this.options.queryFailure;
    if (failure) return { reply: errorMessage(failure.code, failure.message, 0, 0) };
    const result = this.options.result;
    return {
      reply: Buffer.concat([
        describe(result),
        rows(result),
        errorMessage(1403, 'ORA-01403: no data found', 1, result.rows.length),
      ]),
    };
  }
}
