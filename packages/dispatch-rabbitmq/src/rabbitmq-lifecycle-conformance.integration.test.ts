import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { createMemoryLogger } from '@corekit/engine-core';
import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { requireService } from '@corekit/testing/require-service';
import { dispatcherLifecycleAdapter } from '../../dispatch-kit/src/test-support/dispatcher-lifecycle-adapter';
import { RabbitMqDispatcher } from './rabbitmq-dispatcher';
import { rabbitMqDispatcherOptionsSchema } from './rabbitmq-dispatcher-options';

// Real broker: RabbitMQ at RABBITMQ_URL. One exchange and one queue bound to it per test.
const rabbitUrl = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
let admin: ChannelModel;
let channel: Channel;
const prepared = new Set<string>();

beforeAll(async () => {
  await requireService('RabbitMQ', rabbitUrl.replace(/^amqps?:/, 'http:'), 'RABBITMQ_URL');
  admin = await amqp.connect(rabbitUrl);
  channel = await admin.createChannel();
});

afterAll(async () => {
  for (const exchange of prepared) {
    await channel.deleteQueue(`${exchange}.queue`).catch(() => undefined);
    await channel.deleteExchange(exchange).catch(() => undefined);
  }
  await admin?.close();
});

describePackLifecycleConformance(
  dispatcherLifecycleAdapter({
    name: 'RabbitMQ',
    create: (_builder, exchange) =>
      new RabbitMqDispatcher(
        rabbitMqDispatcherOptionsSchema.parse({
          ConnectionString: rabbitUrl,
          Exchange: exchange,
          ConnectTimeoutMilliseconds: 2000,
        }),
        createMemoryLogger(),
      ),
    async prepare(exchange) {
      if (prepared.has(exchange)) return;
      await channel.assertExchange(exchange, 'topic', { durable: true });
      await channel.assertQueue(`${exchange}.queue`, { durable: false });
      await channel.bindQueue(`${exchange}.queue`, exchange, '#');
      prepared.add(exchange);
    },
    async received(exchange) {
      const ids: string[] = [];
      if (!prepared.has(exchange)) return ids;
      for (;;) {
        const message = await channel.get(`${exchange}.queue`, { noAck: true });
        if (!message) return ids;
        ids.push(String(message.properties.messageId));
      }
    },
  }),
);
