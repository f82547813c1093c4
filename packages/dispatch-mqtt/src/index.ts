export { addMqttDispatcher } from './add-mqtt-dispatcher';
export { MqttDispatcher } from './mqtt-dispatcher';
export type { MqttEventEnvelope } from './mqtt-dispatcher';
export { mqttDispatcherOptionsSchema } from './mqtt-dispatcher-options';
export type { MqttDispatcherOptions, MqttDispatcherOptionsInput } from './mqtt-dispatcher-options';
