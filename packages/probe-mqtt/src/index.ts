export { addMqttHealth } from './add-mqtt-health';
export { mqttHealthProbe } from './mqtt-health-probe';
export {
  mqttHealthEntryShape,
  mqttHealthOptionsSchema,
  mqttDefaultPort,
  mqttDefaultTlsPort,
} from './mqtt-health-options';
export type { MqttHealthOptions } from './mqtt-health-options';
