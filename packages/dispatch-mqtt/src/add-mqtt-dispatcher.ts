import { defineDispatcher, type DispatcherFunction } from '@corekit/dispatch-kit';
import { MqttDispatcher } from './mqtt-dispatcher';
import { mqttDispatcherOptionsSchema, type MqttDispatcherOptionsInput } from './mqtt-dispatcher-options';

/**
 * Makes the eventing dispatch job publish staged messages to an MQTT broker at QoS 1 (section
 * `Engine:Eventing:Dispatchers:Mqtt`). Call it after `addEventing` with the outbox lane enabled. The
 * connection opens on the first dispatch (startup never fails when the broker is down: dispatches are
 * retry-scheduled, then terminal after `Outbox:MaxAttempts`) and closes when the engine stops.
 */
export const addMqttDispatcher: DispatcherFunction<MqttDispatcher, MqttDispatcherOptionsInput> =
  defineDispatcher({
    packageName: '@corekit/dispatch-mqtt',
    entry: 'addMqttDispatcher',
    codePrefix: 'MQTT_DISPATCHER',
    section: 'Engine:Eventing:Dispatchers:Mqtt',
    schema: mqttDispatcherOptionsSchema,
    create: (settings, logger) => new MqttDispatcher(settings, logger),
  });
