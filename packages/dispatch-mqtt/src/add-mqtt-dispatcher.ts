import type { EngineBuilder } from '@corekit/abstractions';
import { registerDispatcher } from '@corekit/dispatch-kit';
import { MqttDispatcher } from './mqtt-dispatcher';
import { mqttDispatcherOptionsSchema, type MqttDispatcherOptionsInput } from './mqtt-dispatcher-options';

/**
 * Makes the eventing dispatch job publish staged messages to an MQTT broker at QoS 1 (section
 * `Engine:Eventing:Dispatchers:Mqtt`). Call it after `addEventing` with the outbox lane enabled. The
 * connection opens on the first dispatch (startup never fails when the broker is down: dispatches are
 * retry-scheduled, then terminal after `Outbox:MaxAttempts`) and closes when the engine stops.
 */
export function addMqttDispatcher(
  builder: EngineBuilder,
  options?: MqttDispatcherOptionsInput,
): MqttDispatcher {
  return registerDispatcher(
    builder,
    {
      packageName: '@corekit/dispatch-mqtt',
      functionName: 'addMqttDispatcher',
      codePrefix: 'MQTT_DISPATCHER',
      section: 'Engine:Eventing:Dispatchers:Mqtt',
      schema: mqttDispatcherOptionsSchema,
      create: (settings, logger) => new MqttDispatcher(settings, logger),
    },
    options,
  );
}
