import { transportAdapterKey } from '@corekit/abstractions';
import { resolveTransports } from './transports';
import { runtimeEventSchema } from '@corekit/abstractions';
import WebSocket from 'ws';
import {
  closeTestHosts,
  controlledDependency,
  startTestHost,
  type ControlledDependency,
  type TestHost,
} from './test-support/test-host';

afterEach(closeTestHosts);

interface ServerSentEvent {
  id?: string;
  event?: string;
  data?: string;
}

/** Reads server-sent events from a fetch response until `until` returns true. */
async function readEvents(
  response: Response,
  until: (events: ServerSentEvent[]) => boolean,
): Promise<ServerSentEvent[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: ServerSentEvent[] = [];
  let buffer = '';
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: ServerSentEvent = {};
      for (const line of frame.split('\n')) {
        const [field, ...rest] = line.split(': ');
        if (field === 'id' || field === 'event' || field === 'data') event[field] = rest.join(': ');
      }
      if (event.event) events.push(event);
    }
  }
  await reader.cancel();
  return events;
}

async function hostWithTransports(transports: unknown, extra: Record<string, unknown> = {}) {
  const dependency = controlledDependency('ledger-db', true);
  const test = await startTestHost({
    configuration: { Engine: { Transports: transports, Web: extra } },
    setup: (builder) => builder.addDependencyHealthContributor(dependency),
  });
  return { test, dependency };
}

/** Runs every dependency contributor now (engine-core's refreshDependencies, not part of the Engine contract). */
function refresh(test: TestHost): Promise<void> {
  return (test.host.engine as unknown as { refreshDependencies(): Promise<void> }).refreshDependencies();
}

async function flip(test: TestHost, dependency: ControlledDependency) {
  dependency.result = { status: 'Unhealthy', error: { code: 'REFUSED', message: 'connection refused' } };
  await refresh(test);
}

describe('Engine:Transports ServerSentEvents', () => {
  it('streams runtime events as text/event-stream: a dependency change and the readiness change it causes', async () => {
    const { test, dependency } = await hostWithTransports(['RestApi', 'ServerSentEvents']);
    const response = await fetch(`${test.base}/engine/events`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const readinessChanged = (event: ServerSentEvent) =>
      event.event === 'health-changed' && JSON.parse(event.data!).probe === 'readiness';
    const reading = readEvents(response, (events) => events.some(readinessChanged));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await flip(test, dependency);
    const events = await reading;
    const dependencyChanged = events.find((event) => event.event === 'dependency-changed')!;
    expect(JSON.parse(dependencyChanged.data!)).toMatchObject({
      type: 'dependency-changed',
      dependencyId: 'ledger-db',
      status: 'Unhealthy',
      previous: 'Healthy',
    });
    const healthChanged = JSON.parse(events.find(readinessChanged)!.data!);
    expect(healthChanged).toMatchObject({ probe: 'readiness', status: 'Unhealthy', previous: 'Healthy' });
    for (const event of events)
      expect(runtimeEventSchema.safeParse(JSON.parse(event.data!)).success).toBe(true);
    const ids = events.map((event) => Number(event.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('ends every stream with a shutdown event when the host shuts down', async () => {
    const { test } = await hostWithTransports(['ServerSentEvents']);
    const response = await fetch(`${test.base}/engine/events`);
    const reading = readEvents(response, (events) => events.some((event) => event.event === 'shutdown'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await test.host.close();
    expect((await reading).map((event) => event.event)).toContain('shutdown');
  });

  it('accepts a comma list (as an environment variable would carry it) and refuses clients over MaxConnections with 503', async () => {
    const { test } = await hostWithTransports('RestApi, ServerSentEvents', { Events: { MaxConnections: 1 } });
    const first = await fetch(`${test.base}/engine/events`);
    expect(first.status).toBe(200);
    const second = await test.request('/engine/events');
    expect([second.status, second.body.code]).toEqual([503, 'TOO_MANY_CONNECTIONS']);
    await first.body!.cancel();
  });

  it('counts refused stream clients and logs them once per interval, not once per client', async () => {
    const { test } = await hostWithTransports(['RestApi', 'ServerSentEvents', 'WebSocket'], {
      Events: { MaxConnections: 1 },
    });
    const first = await fetch(`${test.base}/engine/events`);
    expect(first.status).toBe(200);
    const refusedSse = await Promise.all(
      Array.from({ length: 30 }, () =>
        fetch(`${test.base}/engine/events`).then((response) => response.status),
      ),
    );
    const refusedWebSockets = await Promise.all(
      Array.from(
        { length: 30 },
        () =>
          new Promise<number>((resolve) => {
            const socket = new WebSocket(`${test.base.replace('http', 'ws')}/engine/events/ws`);
            socket.on('unexpected-response', (_request, response) => {
              resolve(response.statusCode ?? 0);
              response.resume();
              socket.terminate();
            });
            socket.on('error', () => undefined);
          }),
      ),
    );
    expect(new Set([...refusedSse, ...refusedWebSockets])).toEqual(new Set([503]));
    const records = test.logger.records.filter((record) => String(record.message).includes('MaxConnections'));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 'warn', eventId: 2016 });
    expect(test.logger.records.filter((record) => record.level === 'error')).toEqual([]);
    await first.body!.cancel();
  });

  it('sends a keep-alive comment every Engine:Web:Events:HeartbeatInterval', async () => {
    const { test } = await hostWithTransports(['ServerSentEvents'], {
      Events: { HeartbeatInterval: '50ms' },
    });
    const response = await fetch(`${test.base}/engine/events`);
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes(': keep-alive')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(text).toContain('retry: 5000');
  });

  it('is not served unless configured (RestApi is the default)', async () => {
    const test = await startTestHost();
    expect(test.host.transports).toEqual(['RestApi']);
    expect((await test.request('/engine/events')).status).toBe(404);
    expect((await test.request('/engine/events/ws')).status).toBe(404);
  });
});

describe('Engine:Transports WebSocket', () => {
  function connect(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.once('open', () => resolve(socket));
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`HTTP ${response.statusCode}`)),
      );
      socket.once('error', reject);
    });
  }

  it('pushes the same runtime events as JSON messages', async () => {
    const { test, dependency } = await hostWithTransports(['RestApi', 'WebSocket']);
    const socket = await connect(`${test.base.replace('http', 'ws')}/engine/events/ws`);
    const messages: any[] = [];
    const received = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        messages.push(JSON.parse(String(data)));
        if (messages.some((message) => message.type === 'dependency-changed')) resolve();
      }),
    );
    await flip(test, dependency);
    await received;
    const message = messages.find((candidate) => candidate.type === 'dependency-changed');
    expect(message).toMatchObject({
      type: 'dependency-changed',
      dependencyId: 'ledger-db',
      status: 'Unhealthy',
      id: expect.any(Number),
    });
    const { id: _id, ...event } = message;
    expect(runtimeEventSchema.safeParse(event).success).toBe(true);
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await test.host.close();
    expect(await closed).toBe(1001);
  });

  it('answers 426 problem details to a plain GET, 404 to an upgrade on another path', async () => {
    const { test } = await hostWithTransports(['WebSocket']);
    const plain = await test.request('/engine/events/ws');
    expect([plain.status, plain.body.code, plain.headers.get('upgrade')]).toEqual([
      426,
      'UPGRADE_REQUIRED',
      'websocket',
    ]);
    await expect(connect(`${test.base.replace('http', 'ws')}/engine/elsewhere`)).rejects.toThrow('HTTP 404');
  });

  it('refuses the upgrade with 403 when /engine routes require authorization and the hook denies', async () => {
    const test = await startTestHost({
      configuration: {
        Engine: { Transports: ['WebSocket'], Web: { EngineRoutes: { RequireAuthorization: true } } },
      },
      host: { authorize: (request) => request.headers['x-operator'] === 'yes' },
    });
    const url = `${test.base.replace('http', 'ws')}/engine/events/ws`;
    await expect(connect(url)).rejects.toThrow('HTTP 403');
    const socket = await connect(url, { 'x-operator': 'yes' });
    socket.close();
  });
});

describe('unavailable transports fail startup', () => {
  it('an unknown name names the full key and the accepted values', async () => {
    await expect(
      startTestHost({ configuration: { Engine: { Transports: ['RestApi', 'CarrierPigeon'] } } }),
    ).rejects.toMatchObject({
      code: 'TRANSPORT_UNAVAILABLE',
      message: expect.stringMatching(
        /Engine:Transports:1 is "CarrierPigeon".*RestApi, ServerSentEvents, WebSocket, GraphQL, Grpc, JsonRpc/,
      ),
    });
  });

  it.each([
    ['GraphQL', '@corekit/transport-graphql', 'addGraphQlTransport'],
    ['Grpc', '@corekit/transport-grpc', 'addGrpcTransport'],
    ['JsonRpc', '@corekit/transport-jsonrpc', 'addJsonRpcTransport'],
  ])(
    '%s without its adapter names the package to install, or the call to make',
    (name, packageName, registration) => {
      const engine = { resolve: () => undefined };
      const missing = () => resolveTransports(engine, ['RestApi', name], () => false);
      expect(missing).toThrow(expect.objectContaining({ code: 'TRANSPORT_UNAVAILABLE' }));
      expect(missing).toThrow(`install it (pnpm add ${packageName}) and call ${registration}(builder)`);
      expect(() => resolveTransports(engine, ['RestApi', name], () => true)).toThrow(
        `${packageName} is installed but not registered; call ${registration}(builder) before building the engine`,
      );
    },
  );

  it('a configured adapter that is not registered fails the web host at startup', async () => {
    await expect(
      startTestHost({ configuration: { Engine: { Transports: ['RestApi', 'JsonRpc'] } } }),
    ).rejects.toMatchObject({ code: 'TRANSPORT_UNAVAILABLE' });
  });

  it('an adapter registered under its typed key is mounted and its raw HTTP handler is served and documented', async () => {
    const test = await startTestHost({
      configuration: { Engine: { Transports: ['RestApi', 'graphql'] } },
      setup: (builder) =>
        builder.provide(transportAdapterKey('GraphQL'), {
          name: 'GraphQL',
          mountedOperations: () => ['orders.list'],
          mount({ engine, http }) {
            http!.handle(
              '/graphql',
              ['POST'],
              (request, response) => {
                // The adapter owns the body: the host's JSON parser left the stream unread.
                let text = '';
                request.on('data', (chunk) => (text += chunk));
                request.on('end', () => {
                  response.setHeader('Content-Type', 'application/json');
                  response.end(JSON.stringify({ data: { status: engine.status().state, received: text } }));
                });
              },
              { summary: 'GraphQL endpoint' },
            );
          },
        }),
    });
    expect(test.host.transports).toEqual(['RestApi', 'GraphQL']);
    const answer = await test.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"{status}"}',
    });
    expect(answer.body).toEqual({ data: { status: 'Started', received: '{"query":"{status}"}' } });
    expect((await test.request('/openapi/v1.json')).body.paths['/graphql'].post).toBeDefined();
    expect((await test.request('/engine/manifest')).body.transports).toEqual([
      { name: 'RestApi', operations: [] },
      { name: 'GraphQL', operations: ['orders.list'] },
    ]);
  });

  it('unmounts every adapter when the host closes, after the engine stopped', async () => {
    const seen: string[] = [];
    let state = '';
    const test = await startTestHost({
      configuration: { Engine: { Transports: ['RestApi', 'JsonRpc'] } },
      setup: (builder) =>
        builder.provide(transportAdapterKey('JsonRpc'), {
          name: 'JsonRpc',
          mount: ({ engine }) => {
            seen.push('mounted');
            return void engine.subscribe(() => (state = engine.state));
          },
          unmount: () => void seen.push(`unmounted after ${state}`),
        }),
    });
    await test.host.close();
    expect(seen).toEqual(['mounted', 'unmounted after Stopped']);
  });

  it('an adapter that fails to unmount is logged with its own id 2020, not request-failed 2014', async () => {
    const test = await startTestHost({
      configuration: { Engine: { Transports: ['RestApi', 'JsonRpc'] } },
      setup: (builder) =>
        builder.provide(transportAdapterKey('JsonRpc'), {
          name: 'JsonRpc',
          mount: () => undefined,
          unmount: () => {
            throw new Error('port stuck');
          },
        }),
    });
    await test.host.close();
    const failures = test.logger.records.filter((record) => String(record.message).includes('unmount'));
    expect(failures).toEqual([
      expect.objectContaining({ level: 'warn', eventId: 2020, category: 'web-host' }),
    ]);
  });
});
