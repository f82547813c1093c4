import type { EngineBuilder } from '@corekit/abstractions';
import { registerDispatcher } from '@corekit/dispatch-kit';
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
  return registerDispatcher(
    builder,
    {
      packageName: '@corekit/dispatch-rabbitmq',
      functionName: 'addRabbitMqDispatcher',
      codePrefix: 'RABBITMQ_DISPATCHER',
      section: 'Engine:Eventing:Dispatchers:RabbitMq',
      schema: rabbitMqDispatcherOptionsSchema,
      create: (settings, logger) => new RabbitMqDispatcher(settings, logger),
    },
    options,
  );
}
