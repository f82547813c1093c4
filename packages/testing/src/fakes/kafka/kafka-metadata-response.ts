// The Metadata response body, versions 0-6 (https://kafka.apache.org/protocol#The_Messages_Metadata), for a
// single-broker cluster where that broker leads and replicates every partition.
import { KafkaWriter, kafkaErrorCodes } from './kafka-wire';

/** One topic of the answer. */
export interface MetadataTopic {
  name: string;
  /** Topic-level error code (0, 3 UNKNOWN_TOPIC_OR_PARTITION, 5 LEADER_NOT_AVAILABLE). */
  errorCode: number;
  /** Number of partitions listed (0 for a topic answered with an error). */
  partitions: number;
  /** Partitions without a leader: leader -1 and partition error 5 LEADER_NOT_AVAILABLE. */
  leaderless: boolean;
}

export interface MetadataBroker {
  nodeId: number;
  host: string;
  port: number;
  clusterId: string;
}

export function encodeMetadataResponse(
  version: number,
  broker: MetadataBroker,
  topics: readonly MetadataTopic[],
): KafkaWriter {
  const body = new KafkaWriter();
  if (version >= 3) body.int32(0); // throttle_time_ms
  body.array([broker], (writer, node) => {
    writer.int32(node.nodeId).string(node.host).int32(node.port);
    if (version >= 1) writer.nullableString(null); // rack
  });
  if (version >= 2) body.nullableString(broker.clusterId);
  if (version >= 1) body.int32(broker.nodeId); // controller_id
  body.array(topics, (writer, topic) => {
    writer.int16(topic.errorCode).string(topic.name);
    if (version >= 1) writer.boolean(false); // is_internal
    const partitions = Array.from({ length: topic.partitions }, (_, index) => index);
    writer.array(partitions, (partitionWriter, partition) => {
      partitionWriter.int16(topic.leaderless ? kafkaErrorCodes.leaderNotAvailable : kafkaErrorCodes.none);
      partitionWriter.int32(partition).int32(topic.leaderless ? -1 : broker.nodeId);
      partitionWriter.array([broker.nodeId], (w, id) => w.int32(id)); // replicas
      partitionWriter.array([broker.nodeId], (w, id) => w.int32(id)); // isr
      if (version >= 5) partitionWriter.array([], () => undefined); // offline_replicas
    });
  });
  return body;
}
