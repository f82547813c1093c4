export { addConsulHealth } from './add-consul-health';
export { consulHealthProbe } from './consul-health-probe';
export { consulHealthEntryShape, consulHealthOptionsSchema } from './consul-health-options';
export type { ConsulHealthOptions } from './consul-health-options';
