// Oracle Net (TNS) packet framing for the fake listener: the 8-byte packet header, CONNECT parsing and the
// REFUSE answer. Layout as Oracle Net's packet types are laid out on the wire (the offsets node-oracledb's thin
// driver reads and writes are the reference used here).

/** TNS packet types. */
export const TnsPacketType = { Connect: 1, Accept: 2, Refuse: 4, Data: 6, Marker: 12, Control: 14 } as const;

export interface TnsPacket {
  readonly type: number;
  readonly flags: number;
  /** The whole packet, header included. */
  readonly bytes: Buffer;
}

/**
 * Splits a byte stream into TNS packets. Before ACCEPT the length is the first 2 bytes of the header; after an
 * ACCEPT of version 315 or later ("large SDU") it is the first 4.
 */
export class TnsPacketReader {
  private pending = Buffer.alloc(0);
  largeLength = false;

  push(data: Buffer): TnsPacket[] {
    this.pending = Buffer.concat([this.pending, data]);
    const packets: TnsPacket[] = [];
    while (this.pending.length >= 8) {
      const length = this.largeLength ? this.pending.readUInt32BE(0) : this.pending.readUInt16BE(0);
      if (length < 8) throw new RangeError('TNS packet shorter than its header');
      if (this.pending.length < length) break;
      const bytes = this.pending.subarray(0, length);
      packets.push({ type: bytes[4]!, flags: bytes[5]!, bytes });
      this.pending = this.pending.subarray(length);
    }
    return packets;
  }
}

/** An 8-byte header (2-byte length form) followed by `body`. */
export function tnsPacket(type: number, body: Buffer, flags = 0): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt16BE(8 + body.length, 0);
  header[4] = type;
  header[5] = flags;
  return Buffer.concat([header, body]);
}

/** What a CONNECT packet carries that the fake looks at. */
export interface TnsConnect {
  /** TNS version the client wants (319 for current drivers). */
  readonly version: number;
  /** Length of the connect data; when it exceeds what the packet holds, the rest follows in DATA packets. */
  readonly connectDataLength: number;
  /** The connect data present in the CONNECT packet itself. */
  readonly inlineData: Buffer;
}

export function parseConnect(packet: TnsPacket): TnsConnect {
  const { bytes } = packet;
  const connectDataLength = bytes.readUInt16BE(24);
  const offset = bytes.readUInt16BE(26);
  return {
    version: bytes.readUInt16BE(8),
    connectDataLength,
    inlineData: bytes.subarray(offset, Math.min(bytes.length, offset + connectDataLength)),
  };
}

/** The payload of a DATA packet (after the 2-byte data flags). */
export function dataPayload(packet: TnsPacket): Buffer {
  return packet.bytes.subarray(10);
}

/**
 * A REFUSE packet as a listener sends it: user and system reason bytes, then the refuse data, an Oracle Net
 * descriptor naming the error (`(DESCRIPTION=(TMP=)(VSNNUM=...)(ERR=12514)(ERROR_STACK=...))`).
 */
export function refusePacket(errorCode: number): Buffer {
  const data = Buffer.from(
    `(DESCRIPTION=(TMP=)(VSNNUM=385875968)(ERR=${errorCode})(ERROR_STACK=(ERROR=(CODE=${errorCode})(EMFI=4))))`,
    'ascii',
  );
  const body = Buffer.alloc(4);
  body[0] = 34; // user reason
  body[1] = 0; // system reason
  body.writeUInt16BE(data.length, 2);
  return tnsPacket(TnsPacketType.Refuse, Buffer.concat([body, data]));
}

/** The value of `(KEY=value)` in an Oracle Net descriptor, first match, case-insensitive. */
export function descriptorValue(descriptor: string, key: string): string | undefined {
  const match = new RegExp(`\\(\\s*${key}\\s*=\\s*([^()]*?)\\s*\\)`, 'i').exec(descriptor);
  return match?.[1];
}

/** NS accept flag: no Advanced Networking Option services, so the client skips the ANO exchange. */
const NO_NETWORK_SERVICES = 0x08;

/**
 * ACCEPT for TNS version 319 with large SDU (so every later packet carries a 4-byte length), no ANO, no
 * out-of-band breaks, no fast authentication and no end-of-request markers.
 */
export function acceptPacket(sdu = 8192): Buffer {
  const body = Buffer.alloc(37);
  body.writeUInt16BE(319, 0); // version
  body.writeUInt16BE(0, 2); // service options
  body.writeUInt16BE(sdu, 4);
  body.writeUInt16BE(0xffff, 6); // TDU
  body.writeUInt16BE(0x0100, 8); // "1" in this server's byte order
  body.writeUInt16BE(0, 10); // accept data length
  body.writeUInt16BE(45, 12); // accept data offset
  body[14] = 0; // flags 0
  body[15] = NO_NETWORK_SERVICES; // flags 1
  body.writeUInt32BE(sdu, 24); // large SDU
  body.writeUInt32BE(2097152, 28); // large TDU
  body[32] = 0; // no compression
  body.writeUInt32BE(0, 33); // flags 2
  return tnsPacket(TnsPacketType.Accept, body);
}

/** Data flag: the sender closes the session after this packet. */
export const DATA_FLAG_END_OF_FILE = 0x40;

/** A DATA packet in the large-SDU form (4-byte length), data flags 0, carrying `payload`. */
export function dataPacket(payload: Buffer): Buffer {
  const header = Buffer.alloc(10);
  header.writeUInt32BE(10 + payload.length, 0);
  header[4] = TnsPacketType.Data;
  return Buffer.concat([header, payload]);
}

/** The 2-byte data flags of a DATA packet. */
export function dataFlags(packet: TnsPacket): number {
  return packet.bytes.readUInt16BE(8);
}
