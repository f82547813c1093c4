import { CoreError, type EngineBuilder } from '@corekit/abstractions';
import { eventingRegistrationKey, useEventDispatcher } from '@corekit/eventing';
import { KafkaDispatcher } from './kafka-dispatcher';
import { kafkaDispatcherOptionsSchema, type KafkaDispatcherOptionsInput } from './kafka-dispatcher-options';

/**
 * Makes the eventing dispatch job produce staged messages to Kafka (section
 * `Engine:Eventing:Dispatchers:Kafka`). Call it after `addEventing` with the outbox lane enabled. The
 * producer connects on the first dispatch (startup never fails with the brokers down: dispatches are
 * retry-scheduled, then terminal after `Outbox:MaxAttempts`) and disconnects when the engine stops.
 */
export function addKafkaDispatcher(
  builder: EngineBuilder,
  options?: KafkaDispatcherOptionsInput,
): KafkaDispatcher {
  if (builder.hasRegistration('@corekit/dispatch-kafka')) {
    throw new CoreError(
      'KAFKA_DISPATCHER_ALREADY_REGISTERED',
      'addKafkaDispatcher was called twice; call it once.',
    );
  }
  const eventing = builder.resolve(eventingRegistrationKey);
  if (!eventing || !eventing.options.Outbox.Enabled) {
    throw new CoreError(
      'KAFKA_DISPATCHER_WITHOUT_LANE',
      'addKafkaDispatcher needs addEventing(builder, { Outbox: { Enabled: true } }) first (Engine:Eventing:Outbox:Enabled).',
    );
  }
  builder.markRegistration('@corekit/dispatch-kafka');
  const settings = builder.configuration.bind(
    'Engine:Eventing:Dispatchers:Kafka',
    kafkaDispatcherOptionsSchema,
    options,
  );
  const dispatcher = new KafkaDispatcher(settings, builder.logger);
  useEventDispatcher(builder, dispatcher);
  return dispatcher;
}
