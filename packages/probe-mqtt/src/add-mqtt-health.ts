import { defineProbe } from '@corekit/probe-kit';
import { mqttHealthProbe } from './mqtt-health-probe';

/**
 * Registers one MQTT dependency-health contributor per entry of `Engine:Observability:DependencyHealth:Mqtt`,
 * with `options` merged over the configuration (code wins per field; dependencies matched by Id). Fails
 * with CONFIGURATION_INVALID naming the full key path when an entry is invalid.
 */
export const addMqttHealth = defineProbe(mqttHealthProbe);
