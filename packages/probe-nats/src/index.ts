export { addNatsHealth } from './add-nats-health';
export { natsHealthProbe } from './nats-health-probe';
export { natsHealthEntryShape, natsHealthOptionsSchema, natsDefaultPort } from './nats-health-options';
export type { NatsHealthOptions } from './nats-health-options';
