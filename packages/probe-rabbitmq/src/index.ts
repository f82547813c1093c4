export { addRabbitMqHealth } from './add-rabbitmq-health';
export { rabbitMqHealthProbe } from './rabbitmq-health-probe';
export {
  rabbitMqHealthEntryShape,
  rabbitMqHealthOptionsSchema,
  resolveRabbitMqTarget,
} from './rabbitmq-health-options';
export type { RabbitMqHealthOptions, RabbitMqTarget } from './rabbitmq-health-options';
