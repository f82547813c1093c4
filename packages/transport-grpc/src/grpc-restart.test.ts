import { Metadata, status } from '@grpc/grpc-js';
import { addGrpcTransport, type GrpcTransport } from './index';
import { behaviorClient, healthClient } from './test-support/grpc-client';
import { closeHosts, startHost } from './test-support/test-host';

afterEach(closeHosts);

/** A host whose hosted service waits for `hold` on every start after the first (to look inside a restart). */
async function restartableHost() {
  let adapter: GrpcTransport | undefined;
  let starts = 0;
  let hold: Promise<void> = Promise.resolve();
  const started = await startHost(['Grpc'], (builder) => {
    adapter = addGrpcTransport(builder, { Port: 0 });
    builder.addHostedService({
      id: 'held-start',
      start: () => (++starts > 1 ? hold : undefined),
      stop: () => undefined,
    });
  });
  const port = adapter!.port()!;
  const holdNextStart = () => {
    let release: () => void = () => undefined;
    hold = new Promise<void>((resolve) => (release = resolve));
    return () => release();
  };
  return { ...started, adapter: adapter!, port, holdNextStart };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('gRPC transport across an engine restart', () => {
  it('keeps the server open: NOT_SERVING and UNAVAILABLE while restarting, then SERVING and answering on the same port', async () => {
    const { host, adapter, port, holdNextStart } = await restartableHost();
    const notes = behaviorClient(adapter.proto()!, port);
    const health = healthClient(port);
    expect((await notes.call('NotesGet', { id: 'n1' })).response).toEqual({ id: 'n1', text: 'hello' });
    const statuses: string[] = [];
    const watch = (health.client as any).Watch({ service: '' }, new Metadata());
    watch.on('data', (message: { status: string }) => statuses.push(message.status));
    watch.on('error', () => undefined);
    await until(() => statuses.length === 1);

    const release = holdNextStart();
    const restarting = host.engine.restart();
    await until(() => host.engine.state === 'Starting');
    expect((await health.call('Check', { service: '' })).response).toEqual({ status: 'NOT_SERVING' });
    const during = (await notes.call('NotesGet', { id: 'n1' })).error!;
    expect(during.code).toBe(status.UNAVAILABLE);
    expect(during.metadata.get('corekit-error-code')).toEqual(['BEHAVIOR_UNAVAILABLE']);
    release();
    await restarting;

    expect(host.engine.state).toBe('Started');
    expect(adapter.port()).toBe(port);
    expect((await health.call('Check', { service: '' })).response).toEqual({ status: 'SERVING' });
    expect((await notes.call('NotesCreate', { text: 'after' })).response).toEqual({
      id: 'n2',
      text: 'after',
    });
    await until(() => statuses.length === 3);
    expect(statuses).toEqual(['SERVING', 'NOT_SERVING', 'SERVING']);
    watch.cancel();
    notes.close();
    health.close();
  });

  it('closes the server on stop and binds a new one on the same port when the engine restarts', async () => {
    const { host, adapter, port } = await restartableHost();
    await host.engine.stop();
    await until(() => adapter.port() === undefined);
    const health = healthClient(port);
    expect((await health.call('Check', { service: '' }, 1000)).error?.code).toBe(status.UNAVAILABLE);
    health.close();

    await host.engine.restart();
    expect(adapter.port()).toBe(port);
    const again = healthClient(port);
    expect((await again.call('Check', { service: '' })).response).toEqual({ status: 'SERVING' });
    const notes = behaviorClient(adapter.proto()!, port);
    expect((await notes.call('NotesGet', { id: 'n1' })).response).toEqual({ id: 'n1', text: 'hello' });
    const surface = host.engine.technologySurfaces().find((entry) => entry.id === 'transport-grpc')!;
    expect(surface.metadata).toMatchObject({ mounted: true, port, health: 'SERVING', tls: false });
    again.close();
    notes.close();
  });
});
