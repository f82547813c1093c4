import { CoreError, type EngineBuilder } from '@corekit/abstractions';
import { eventingRegistrationKey, useEventDispatcher } from '@corekit/eventing';
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
  if (builder.hasRegistration('@corekit/dispatch-mqtt')) {
    throw new CoreError(
      'MQTT_DISPATCHER_ALREADY_REGISTERED',
      'addMqttDispatcher was called twice; call it once.',
    );
  }
  const eventing = builder.resolve(eventingRegistrationKey);
  if (!eventing || !eventing.options.Outbox.Enabled) {
    throw new CoreError(
      'MQTT_DISPATCHER_WITHOUT_LANE',
      'addMqttDispatcher needs addEventing(builder, { Outbox: { Enabled: true } }) first (Engine:Eventing:Outbox:Enabled).',
    );
  }
  builder.markRegistration('@corekit/dispatch-mqtt');
  const settings = builder.configuration.bind(
    'Engine:Eventing:Dispatchers:Mqtt',
    mqttDispatcherOptionsSchema,
    options,
  );
  const dispatcher = new MqttDispatcher(settings, builder.logger);
  useEventDispatcher(builder, dispatcher);
  return dispatcher;
}
