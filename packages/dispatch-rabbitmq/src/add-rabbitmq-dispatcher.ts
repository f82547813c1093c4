import { defineDispatcher, type DispatcherFunction } from '@corekit/dispatch-kit';
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
export const addRabbitMqDispatcher: DispatcherFunction<RabbitMqDispatcher, RabbitMqDispatcherOptionsInput> =
  defineDispatcher({
    packageName: '@corekit/dispatch-rabbitmq',
    entry: 'addRabbitMqDispatcher',
    codePrefix: 'RABBITMQ_DISPATCHER',
    section: 'Engine:Eventing:Dispatchers:RabbitMq',
    schema: rabbitMqDispatcherOptionsSchema,
    create: (settings, logger) => new RabbitMqDispatcher(settings, logger),
  });
