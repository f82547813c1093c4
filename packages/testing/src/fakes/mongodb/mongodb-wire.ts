// MongoDB wire protocol messages the fake reads and writes
// (https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/): the standard 16-byte header,
// OP_QUERY (the legacy handshake drivers still send before they know the server speaks OP_MSG), OP_REPLY
// (its answer) and OP_MSG (everything else).
import { deserialize, serialize, type Document } from 'bson';

export const opCodes = { reply: 1, query: 2004, message: 2013 } as const;

/** OP_MSG flag bits. */
const checksumPresent = 1 << 0;
const moreToCome = 1 << 1;

export interface MongoRequest {
  requestId: number;
  opCode: 'OP_QUERY' | 'OP_MSG';
  /** Database the command runs against: `$db` of an OP_MSG, the `<db>.$cmd` prefix of an OP_QUERY. */
  database: string;
  /** The command document, with OP_MSG document sequences (section kind 1) folded in as arrays. */
  command: Document;
  /** OP_MSG moreToCome: the sender expects no reply (drivers send endSessions this way on close). */
  noReply: boolean;
}

/** Decodes one complete message (header included); null for opcodes the fake does not speak. */
export function decodeMongoRequest(message: Buffer): MongoRequest | null {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  if (opCode === opCodes.query) {
    let offset = 16 + 4; // flags
    const nameEnd = message.indexOf(0, offset);
    const collection = message.toString('utf8', offset, nameEnd);
    offset = nameEnd + 1 + 8; // numberToSkip, numberToReturn
    const size = message.readInt32LE(offset);
    const command = deserialize(message.subarray(offset, offset + size));
    const database = collection.endsWith('.$cmd') ? collection.slice(0, -'.$cmd'.length) : collection;
    // Drivers wrap the command as { $query: command, $readPreference } when they add a read preference.
    const unwrapped =
      command.$query && typeof command.$query === 'object' ? (command.$query as Document) : command;
    return { requestId, opCode: 'OP_QUERY', database, command: unwrapped, noReply: false };
  }
  if (opCode === opCodes.message) {
    const flags = message.readUInt32LE(16);
    const end = message.length - (flags & checksumPresent ? 4 : 0);
    let offset = 20;
    let command: Document = {};
    const sequences: Array<[string, Document[]]> = [];
    while (offset < end) {
      const kind = message.readUInt8(offset);
      offset += 1;
      if (kind === 0) {
        const size = message.readInt32LE(offset);
        command = deserialize(message.subarray(offset, offset + size));
        offset += size;
      } else {
        const sectionEnd = offset + message.readInt32LE(offset);
        const nameEnd = message.indexOf(0, offset + 4);
        const identifier = message.toString('utf8', offset + 4, nameEnd);
        const documents: Document[] = [];
        for (let cursor = nameEnd + 1; cursor < sectionEnd;) {
          const size = message.readInt32LE(cursor);
          documents.push(deserialize(message.subarray(cursor, cursor + size)));
          cursor += size;
        }
        sequences.push([identifier, documents]);
        offset = sectionEnd;
      }
    }
    for (const [identifier, documents] of sequences) command[identifier] = documents;
    const noReply = (flags & moreToCome) !== 0;
    return { requestId, opCode: 'OP_MSG', database: String(command.$db ?? ''), command, noReply };
  }
  return null;
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const buffer = Buffer.alloc(16);
  buffer.writeInt32LE(length, 0);
  buffer.writeInt32LE(requestId, 4);
  buffer.writeInt32LE(responseTo, 8);
  buffer.writeInt32LE(opCode, 12);
  return buffer;
}

/** An OP_REPLY carrying one document, the answer to an OP_QUERY command. */
export function encodeOpReply(requestId: number, responseTo: number, document: Document): Buffer {
  const body = Buffer.from(serialize(document));
  const fields = Buffer.alloc(20); // responseFlags, cursorID (int64), startingFrom, numberReturned
  fields.writeInt32LE(1, 16);
  return Buffer.concat([header(16 + 20 + body.length, requestId, responseTo, opCodes.reply), fields, body]);
}

/** An OP_MSG with flags 0 and a single kind-0 section, the answer to an OP_MSG command. */
export function encodeOpMsg(requestId: number, responseTo: number, document: Document): Buffer {
  const body = Buffer.from(serialize(document));
  const prefix = Buffer.alloc(5); // flagBits (uint32) + section kind 0
  return Buffer.concat([header(16 + 5 + body.length, requestId, responseTo, opCodes.message), prefix, body]);
}
