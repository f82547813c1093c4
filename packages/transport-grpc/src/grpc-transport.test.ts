import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Metadata, status } from '@grpc/grpc-js';
import { addGrpcTransport, grpcStatusCodes, type GrpcTransport } from './index';
import { exampleProto, exampleProtoFile } from './test-support/example-proto';
import { behaviorClient, healthClient } from './test-support/grpc-client';
import { closeHosts, startHost, waits } from './test-support/test-host';

afterEach(closeHosts);

async function grpcHost(configuration: Record<string, unknown> = {}) {
  let adapter: GrpcTransport | undefined;
  const started = await startHost(
    ['RestApi', 'Grpc'],
    (builder) => {
      adapter = addGrpcTransport(builder, { Port: 0 });
    },
    configuration,
  );
  const port = adapter!.port()!;
  return { ...started, adapter: adapter!, port, ...behaviorClient(adapter!.proto()!, port) };
}

describe('gRPC transport', () => {
  it('the committed example proto is what the generator gives (run `pnpm generate` after changing it)', () => {
    const committed = readFileSync(path.resolve(__dirname, '..', exampleProtoFile), 'utf8');
    expect(committed).toBe(exampleProto());
  });

  it('answers unary calls with a real @grpc/grpc-js client: messages, maps, repeated, optional', async () => {
    const { call, client, adapter, host } = await grpcHost();
    expect(await call('NotesGet', { id: 'n1' })).toEqual({ response: { id: 'n1', text: 'hello' } });
    expect((await call('NotesCreate', { text: 'two' })).response).toEqual({ id: 'n2', text: 'two' });
    expect((await call('NotesStats', {})).response).toEqual({ count: 2, byAuthor: { ada: 2 }, tags: [] });
    expect((await call('NotesStats', { tag: 'x' })).response.tags).toEqual(['x']);
    expect(adapter.mountedOperations!()).toEqual([
      'notes.create',
      'notes.explode',
      'notes.get',
      'notes.stats',
      'notes.wait',
    ]);
    const surface = host.engine.technologySurfaces().find((entry) => entry.id === 'transport-grpc')!;
    expect(surface.metadata).toMatchObject({
      mounted: true,
      health: 'SERVING',
      service: 'corekit.behaviors.Behaviors',
    });
    client.close();
  });

  it('maps invalid input, mapped errors and unexpected errors to status codes with the stable code in metadata', async () => {
    const { call, client, logger } = await grpcHost();
    const invalid = (await call('NotesCreate', { text: '' })).error!;
    expect(invalid.code).toBe(status.INVALID_ARGUMENT);
    expect(invalid.metadata.get('corekit-error-code')).toEqual(['BEHAVIOR_INPUT_INVALID']);
    expect(JSON.parse(String(invalid.metadata.get('corekit-errors-json')[0]))[0].path).toBe('text');
    const missing = (await call('NotesGet', { id: 'zz' })).error!;
    expect([missing.code, missing.details]).toEqual([grpcStatusCodes['not-found'], 'No note "zz"']);
    expect(missing.metadata.get('corekit-error-kind')).toEqual(['not-found']);
    const crash = (await call('NotesExplode', {})).error!;
    expect(crash.code).toBe(status.INTERNAL);
    expect(crash.details).not.toContain('secret internal detail');
    expect(logger.records.some((record) => record.eventId === 3293)).toBe(true);
    client.close();
  });

  it('refuses a message over MaxReceiveMessageBytes with RESOURCE_EXHAUSTED from its length prefix, before decoding or running it', async () => {
    const { call, client } = await grpcHost({ Grpc: { MaxReceiveMessageBytes: 2048 } });
    const refused = (await call('NotesCreate', { text: 'x'.repeat(4000) })).error!;
    expect(refused.code).toBe(status.RESOURCE_EXHAUSTED);
    // grpc-js compares the frame's declared length with the limit: the message is never decoded.
    expect(refused.details).toMatch(/larger than max \(4003 vs 2048\)/);
    expect((await call('NotesCreate', { text: 'two' })).response).toEqual({ id: 'n2', text: 'two' });
    client.close();
  });

  it('answers UNIMPLEMENTED for an unknown rpc', async () => {
    const { port, client } = await grpcHost();
    const other = behaviorClient(
      'syntax = "proto3"; package corekit.behaviors; message R {} service Behaviors { rpc NotesDelete (R) returns (R); }',
      port,
    );
    expect((await other.call('NotesDelete', {})).error!.code).toBe(status.UNIMPLEMENTED);
    other.client.close();
    client.close();
  });

  it('honours deadlines: the client gets DEADLINE_EXCEEDED and the handler sees its signal abort', async () => {
    const { call, client } = await grpcHost();
    const before = waits.aborted;
    const answer = await call('NotesWait', {}, 150);
    expect(answer.error!.code).toBe(status.DEADLINE_EXCEEDED);
    while (waits.aborted === before) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(waits.aborted).toBe(before + 1);
    client.close();
  });

  it('serves grpc.health.v1 from readiness: SERVING when started, NOT_SERVING after beginShutdown, unknown services NOT_FOUND', async () => {
    const { port, host, client } = await grpcHost();
    const health = healthClient(port);
    expect((await health.call('Check', { service: '' })).response).toEqual({ status: 'SERVING' });
    expect((await health.call('Check', { service: 'corekit.behaviors.Behaviors' })).response.status).toBe(
      'SERVING',
    );
    expect((await health.call('Check', { service: 'nope' })).error!.code).toBe(status.NOT_FOUND);
    const statuses: string[] = [];
    const watch = (health.client as any).Watch({ service: '' }, new Metadata());
    watch.on('data', (message: { status: string }) => statuses.push(message.status));
    watch.on('error', () => undefined);
    const ended = new Promise((resolve) => watch.on('end', resolve).on('error', resolve));
    while (statuses.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    host.engine.beginShutdown();
    const during = await health.call('Check', { service: '' });
    expect(during.error?.message).toBeUndefined();
    expect(during.response.status).toBe('NOT_SERVING');
    await host.close();
    await ended;
    expect(statuses).toEqual(['SERVING', 'NOT_SERVING']);
    health.client.close();
    client.close();
  });

  it('answers NOT_SERVING while the engine is starting', async () => {
    let adapter: GrpcTransport | undefined;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const starting = startHost(['Grpc'], (builder) => {
      adapter = addGrpcTransport(builder, { Port: 0 });
      builder.addHostedService({ id: 'slow-start', start: () => gate, stop: () => undefined });
    });
    while (!adapter?.port()) await new Promise((resolve) => setTimeout(resolve, 10));
    const health = healthClient(adapter.port()!);
    expect((await health.call('Check', { service: '' })).response.status).toBe('NOT_SERVING');
    release();
    await starting;
    expect((await health.call('Check', { service: '' })).response.status).toBe('SERVING');
    health.client.close();
  });

  it('serves reflection (grpc.reflection.v1) listing the behavior and health services', async () => {
    const { port, client } = await grpcHost();
    const reflection = behaviorClient(
      `syntax = "proto3"; package grpc.reflection.v1;
       message ServerReflectionRequest { string host = 1; oneof message_request { string list_services = 7; } }
       message ServiceResponse { string name = 1; }
       message ListServiceResponse { repeated ServiceResponse service = 1; }
       message ServerReflectionResponse { string valid_host = 1; oneof message_response { ListServiceResponse list_services_response = 6; } }
       service ServerReflection { rpc ServerReflectionInfo(stream ServerReflectionRequest) returns (stream ServerReflectionResponse); }`,
      port,
      'grpc.reflection.v1.ServerReflection',
    );
    const stream = (reflection.client as any).ServerReflectionInfo();
    const answer = new Promise<any>((resolve) => stream.on('data', resolve));
    stream.write({ list_services: '*' });
    const names = (await answer).list_services_response.service.map(
      (service: { name: string }) => service.name,
    );
    stream.end();
    expect(names).toEqual(expect.arrayContaining(['corekit.behaviors.Behaviors', 'grpc.health.v1.Health']));
    reflection.client.close();
    client.close();
  });
});
