// Produce v0-v2 (https://kafka.apache.org/protocol#The_Messages_Produce), the requests before record batches:
// each partition carries a MessageSet (https://kafka.apache.org/documentation/#messageset) of uncompressed
// messages, magic 0 (no timestamp) or 1 (with timestamp). Compressed messages are refused with error 2
// CORRUPT_MESSAGE; the message CRC is not checked.
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
}

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
      const messages = decodeMessageSet(reader.bytes());
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
function decodeMessageSet(
  set: Buffer,
): Array<{ key: Buffer | null; value: Buffer | null; timestamp: number | null }> | null {
  const messages: Array<{ key: Buffer | null; value: Buffer | null; timestamp: number | null }> = [];
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
    messages.push({ key, value, timestamp });
    offset = start + size;
  }
  return messages;
}
