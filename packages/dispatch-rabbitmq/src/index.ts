export { addRabbitMqDispatcher } from './add-rabbitmq-dispatcher';
export { RabbitMqDispatcher } from './rabbitmq-dispatcher';
export { rabbitMqDispatcherOptionsSchema } from './rabbitmq-dispatcher-options';
export type {
  RabbitMqDispatcherOptions,
  RabbitMqDispatcherOptionsInput,
} from './rabbitmq-dispatcher-options';
