// Produce v0-v3 (https://kafka.apache.org/protocol#The_Messages_Produce). v0-v2 carry a MessageSet
// (https://kafka.apache.org/documentation/#messageset) of uncompressed messages, magic 0 (no timestamp) or 1
// (with timestamp); v3 starts with the transactional id and carries a RecordBatch, magic 2
// (https://kafka.apache.org/documentation/#recordbatch), whose records have headers. Compressed messages or
// batches are refused with error 2 CORRUPT_MESSAGE; CRCs are not checked.
import { KafkaWriter, type KafkaReader } from './kafka-wire';

/** One message the fake accepted, in the order it was appended. */
export interface KafkaProducedRecord {
  readonly topic: string;
  readonly partition: number;
  /** Offset the fake assigned (per topic-partition, from 0). */
  readonly offset: number;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  /** Magic 1 messages: the producer's timestamp (ms); magic 0: null. */
  readonly timestamp: number | null;
  /** The request's required acks (0, 1 or -1). */
  readonly acks: number;
  /** Record headers (Produce v3 record batches), in order; empty for v0-v2 messages, which have none. */
  readonly headers: ReadonlyArray<{ readonly key: string; readonly value: Buffer | null }>;
}

type DecodedMessage = Omit<KafkaProducedRecord, 'topic' | 'partition' | 'offset' | 'acks'>;

interface PartitionResult {
  readonly partition: number;
  readonly errorCode: number;
  readonly baseOffset: bigint;
}

const corruptMessage = 2;
const unknownTopicOrPartition = 3;

/**
 * Reads a Produce request body and appends every message of a known topic's partition 0 to `produced`.
 * Answers the response body, or null when acks is 0 (the broker sends no response then).
 */
export function answerProduce(
  version: number,
  reader: KafkaReader,
  topicExists: (topic: string) => boolean,
  produced: KafkaProducedRecord[],
): { body: KafkaWriter | null; topics: string[] } {
  if (version >= 3) reader.nullableString(); // transactional_id
  const acks = reader.int16();
  reader.int32(); // timeout_ms
  const nextOffset = (topic: string, partition: number) =>
    produced.filter((record) => record.topic === topic && record.partition === partition).length;
  const topics: Array<{ name: string; partitions: PartitionResult[] }> = [];
  const topicCount = reader.int32();
  for (let topicIndex = 0; topicIndex < topicCount; topicIndex += 1) {
    const name = reader.string();
    const partitions: PartitionResult[] = [];
    const partitionCount = reader.int32();
    for (let partitionIndex = 0; partitionIndex < partitionCount; partitionIndex += 1) {
      const partition = reader.int32();
      const set = reader.bytes();
      const messages = version >= 3 ? decodeRecordBatches(set) : decodeMessageSet(set);
      const baseOffset = BigInt(nextOffset(name, partition));
      if (!topicExists(name) || partition !== 0) {
        partitions.push({ partition, errorCode: unknownTopicOrPartition, baseOffset: -1n });
      } else if (messages === null) {
        partitions.push({ partition, errorCode: corruptMessage, baseOffset: -1n });
      } else {
        for (const message of messages) {
          produced.push({ topic: name, partition, offset: nextOffset(name, partition), acks, ...message });
        }
        partitions.push({ partition, errorCode: 0, baseOffset });
      }
    }
    topics.push({ name, partitions });
  }
  if (acks === 0) return { body: null, topics: topics.map((topic) => topic.name) };
  const body = new KafkaWriter();
  body.array(topics, (writer, topic) => {
    writer.string(topic.name);
    writer.array(topic.partitions, (partitionWriter, result) => {
      partitionWriter.int32(result.partition).int16(result.errorCode).int64(result.baseOffset);
      if (version >= 2) partitionWriter.int64(-1n); // log_append_time: -1 means CreateTime
    });
  });
  if (version >= 1) body.int32(0); // throttle_time_ms
  return { body, topics: topics.map((topic) => topic.name) };
}

/** MessageSet => [Offset int64, MessageSize int32, Message]; null when a message is compressed or malformed. */
function decodeMessageSet(set: Buffer): DecodedMessage[] | null {
  const messages: DecodedMessage[] = [];
  let offset = 0;
  while (offset + 12 <= set.length) {
    const size = set.readInt32BE(offset + 8);
    const start = offset + 12;
    if (start + size > set.length) break; // a partial trailing message is allowed and ignored
    // Message => Crc int32, MagicByte int8, Attributes int8, [Timestamp int64 for magic 1], Key bytes, Value bytes
    let cursor = start + 4;
    const magic = set.readInt8(cursor);
    const attributes = set.readInt8(cursor + 1);
    cursor += 2;
    if ((magic !== 0 && magic !== 1) || (attributes & 0x07) !== 0) return null;
    let timestamp: number | null = null;
    if (magic === 1) {
      timestamp = Number(set.readBigInt64BE(cursor));
      cursor += 8;
    }
    const readBytes = (): Buffer | null => {
      const length = set.readInt32BE(cursor);
      cursor += 4;
      if (length < 0) return null;
      const bytes = Buffer.from(set.subarray(cursor, cursor + length));
      cursor += length;
      return bytes;
    };
    const key = readBytes();
    const value = readBytes();
    messages.push({ key, value, timestamp, headers: [] });
    offset = start + size;
  }
  return messages;
}

/**
 * RecordBatch => BaseOffset int64, BatchLength int32, PartitionLeaderEpoch int32, Magic int8 (2), CRC int32,
 * Attributes int16, LastOffsetDelta int32, BaseTimestamp int64, MaxTimestamp int64, ProducerId int64,
 * ProducerEpoch int16, BaseSequence int32, Records [Record]. Record => Length varint, Attributes int8,
 * TimestampDelta varlong, OffsetDelta varint, Key (varint length, -1 null), Value, Headers [varint count:
 * key (varint length + UTF-8), value (varint length, -1 null)]. Null when a batch is compressed or malformed.
 */
function decodeRecordBatches(set: Buffer): DecodedMessage[] | null {
  const messages: DecodedMessage[] = [];
  let offset = 0;
  try {
    while (offset + 12 <= set.length) {
      const batchLength = set.readInt32BE(offset + 8);
      const end = offset + 12 + batchLength;
      if (end > set.length) break; // a partial trailing batch is allowed and ignored
      const magic = set.readInt8(offset + 16);
      const attributes = set.readInt16BE(offset + 21);
      if (magic !== 2 || (attributes & 0x07) !== 0) return null;
      const baseTimestamp = Number(set.readBigInt64BE(offset + 27));
      const count = set.readInt32BE(offset + 57);
      const cursor = { at: offset + 61 };
      for (let index = 0; index < count; index++) {
        varint(set, cursor); // record length
        cursor.at += 1; // record attributes
        const timestampDelta = varint(set, cursor);
        varint(set, cursor); // offset delta
        const bytesOf = (): Buffer | null => {
          const length = varint(set, cursor);
          if (length < 0) return null;
          const bytes = Buffer.from(set.subarray(cursor.at, cursor.at + length));
          cursor.at += length;
          return bytes;
        };
        const key = bytesOf();
        const value = bytesOf();
        const headers: Array<{ key: string; value: Buffer | null }> = [];
        const headerCount = varint(set, cursor);
        for (let header = 0; header < headerCount; header++) {
          const name = bytesOf()?.toString('utf8') ?? '';
          headers.push({ key: name, value: bytesOf() });
        }
        messages.push({ key, value, timestamp: baseTimestamp + timestampDelta, headers });
      }
      offset = end;
    }
  } catch {
    return null;
  }
  return messages;
}

/** A zigzag-encoded variable-length integer (varint and varlong within the safe integer range). */
function varint(buffer: Buffer, cursor: { at: number }): number {
  let result = 0;
  let multiplier = 1;
  for (;;) {
    if (cursor.at >= buffer.length) throw new RangeError('truncated varint');
    const byte = buffer[cursor.at++]!;
    result += (byte & 0x7f) * multiplier;
    if ((byte & 0x80) === 0) break;
    multiplier *= 128;
  }
  // Zigzag: even values are non-negative, odd ones negative.
  return result % 2 === 0 ? result / 2 : -(result + 1) / 2;
}
