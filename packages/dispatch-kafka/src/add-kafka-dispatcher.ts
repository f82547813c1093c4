import { defineDispatcher, type DispatcherFunction } from '@corekit/dispatch-kit';
import { KafkaDispatcher } from './kafka-dispatcher';
import { kafkaDispatcherOptionsSchema, type KafkaDispatcherOptionsInput } from './kafka-dispatcher-options';

/**
 * Makes the eventing dispatch job produce staged messages to Kafka (section
 * `Engine:Eventing:Dispatchers:Kafka`). Call it after `addEventing` with the outbox lane enabled. The
 * producer connects on the first dispatch (startup never fails with the brokers down: dispatches are
 * retry-scheduled, then terminal after `Outbox:MaxAttempts`) and disconnects when the engine stops.
 */
export const addKafkaDispatcher: DispatcherFunction<KafkaDispatcher, KafkaDispatcherOptionsInput> =
  defineDispatcher({
    packageName: '@corekit/dispatch-kafka',
    entry: 'addKafkaDispatcher',
    codePrefix: 'KAFKA_DISPATCHER',
    section: 'Engine:Eventing:Dispatchers:Kafka',
    schema: kafkaDispatcherOptionsSchema,
    create: (settings, logger) => new KafkaDispatcher(settings, logger),
  });
