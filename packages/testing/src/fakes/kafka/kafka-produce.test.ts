import { Kafka, logLevel } from 'kafkajs';
import { startKafkaFakeServer, type KafkaFakeServer } from './kafka-fake-server';

const fakes: KafkaFakeServer[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function producerFor(fake: KafkaFakeServer) {
  const kafka = new Kafka({
    clientId: 'produce-test',
    brokers: [fake.bootstrapServers],
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
  });
  const producer = kafka.producer({ allowAutoTopicCreation: false, retry: { retries: 0 } });
  await producer.connect();
  return producer;
}

describe('Kafka fake: Produce (acceptProduce)', () => {
  it('accepts a kafkajs send with acks -1 and keeps key, value, timestamp and offsets', async () => {
    const fake = await startKafkaFakeServer({ topics: ['orders'], acceptProduce: true });
    fakes.push(fake);
    const producer = await producerFor(fake);
    const [result] = await producer.send({
      topic: 'orders',
      acks: -1,
      messages: [
        { key: 'k-1', value: 'first', timestamp: '1700000000000' },
        { key: null, value: 'second' },
      ],
    });
    const [again] = await producer.send({ topic: 'orders', messages: [{ key: 'k-3', value: 'third' }] });
    await producer.disconnect();
    expect(result).toMatchObject({ topicName: 'orders', partition: 0, errorCode: 0, baseOffset: '0' });
    expect(again).toMatchObject({ baseOffset: '2' });
    expect(
      fake.produced.map((record) => [
        record.offset,
        record.key?.toString() ?? null,
        record.value?.toString(),
        record.acks,
      ]),
    ).toEqual([
      [0, 'k-1', 'first', -1],
      [1, null, 'second', -1],
      [2, 'k-3', 'third', -1],
    ]);
    expect(fake.produced[0].timestamp).toBe(1_700_000_000_000);
    expect(fake.requests.filter((request) => request.apiName === 'Produce')[0]).toMatchObject({
      apiVersion: 3,
      produceTopics: ['orders'],
    });
  });

  it('decodes Produce v3 record batches with their record headers', async () => {
    const fake = await startKafkaFakeServer({ topics: ['orders'], acceptProduce: true });
    fakes.push(fake);
    const producer = await producerFor(fake);
    await producer.send({
      topic: 'orders',
      messages: [
        { key: 'h-1', value: 'with headers', headers: { traceparent: '00-abc-def-01', tenant: 't-1' } },
        { key: 'h-2', value: 'without headers', timestamp: '1700000000123' },
      ],
    });
    await producer.disconnect();
    expect(
      fake.produced.map((record) => ({
        key: record.key?.toString(),
        value: record.value?.toString(),
        headers: record.headers.map((header) => [header.key, header.value?.toString()]),
      })),
    ).toEqual([
      {
        key: 'h-1',
        value: 'with headers',
        headers: [
          ['traceparent', '00-abc-def-01'],
          ['tenant', 't-1'],
        ],
      },
      { key: 'h-2', value: 'without headers', headers: [] },
    ]);
    expect(fake.produced[1]!.timestamp).toBe(1_700_000_000_123);
  });

  it('without acceptProduce a Produce request closes the connection and nothing is kept', async () => {
    const fake = await startKafkaFakeServer({ topics: ['orders'] });
    fakes.push(fake);
    const producer = await producerFor(fake);
    await expect(producer.send({ topic: 'orders', messages: [{ value: 'x' }] })).rejects.toThrow();
    await producer.disconnect();
    expect(fake.produced).toEqual([]);
  });
});
