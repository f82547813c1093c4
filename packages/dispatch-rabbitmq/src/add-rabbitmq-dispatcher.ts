import { CoreError, type EngineBuilder } from '@corekit/abstractions';
import { eventingRegistrationKey, useEventDispatcher } from '@corekit/eventing';
import { RabbitMqDispatcher } from './rabbitmq-dispatcher';
import {
  rabbitMqDispatcherOptionsSchema,
  type RabbitMqDispatcherOptionsInput,
} from './rabbitmq-dispatcher-options';

/**
 * Makes the eventing dispatch job publish staged messages to RabbitMQ (section
 * `Engine:Eventing:Dispatchers:RabbitMq`). Call it after `addEventing` with the outbox lane enabled. The
 * connection opens on the first dispatch (startup never fails when the broker is down: dispatches are
 * retry-scheduled, then terminal after `Outbox:MaxAttempts`) and closes when the engine stops.
 */
export function addRabbitMqDispatcher(
  builder: EngineBuilder,
  options?: RabbitMqDispatcherOptionsInput,
): RabbitMqDispatcher {
  if (builder.hasRegistration('@corekit/dispatch-rabbitmq')) {
    throw new CoreError(
      'RABBITMQ_DISPATCHER_ALREADY_REGISTERED',
      'addRabbitMqDispatcher was called twice; call it once.',
    );
  }
  const eventing = builder.resolve(eventingRegistrationKey);
  if (!eventing || !eventing.options.Outbox.Enabled) {
    throw new CoreError(
      'RABBITMQ_DISPATCHER_WITHOUT_LANE',
      'addRabbitMqDispatcher needs addEventing(builder, { Outbox: { Enabled: true } }) first (Engine:Eventing:Outbox:Enabled).',
    );
  }
  builder.markRegistration('@corekit/dispatch-rabbitmq');
  const settings = builder.configuration.bind(
    'Engine:Eventing:Dispatchers:RabbitMq',
    rabbitMqDispatcherOptionsSchema,
    options,
  );
  const dispatcher = new RabbitMqDispatcher(settings, builder.logger);
  useEventDispatcher(builder, dispatcher);
  return dispatcher;
}
