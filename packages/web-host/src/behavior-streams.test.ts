import { BehaviorError, defineBehavior, transportAdapterKey } from '@corekit/abstractions';
import WebSocket from 'ws';
import { z } from 'zod';
import { streamingOutput } from '@corekit/abstractions';
import { mountBehaviorStreams } from './behavior-streams';
import { closeTestHosts, startTestHost } from './test-support/test-host';

afterEach(closeTestHosts);

const seen = { aborted: 0 };

const ticks = {
  id: 'ticks',
  version: '1.0.0',
  behaviors: [
    defineBehavior({
      id: 'ticks.count',
      input: z.object({ to: z.number().int().min(1).max(5) }),
      output: streamingOutput(z.object({ n: z.number().int() })),
      handler: async function* ({ to }) {
        for (let n = 1; n <= to; n++) yield { n };
      },
    }),
    defineBehavior({
      id: 'ticks.fail',
      input: z.object({}),
      output: streamingOutput(z.object({ n: z.number() })),
      handler: async function* () {
        yield { n: 1 };
        throw new BehaviorError('conflict', 'TICKS_CONFLICT', 'the second tick clashed');
      },
    }),
    defineBehavior({
      id: 'ticks.forever',
      input: z.object({}),
      output: streamingOutput(z.object({ n: z.number() })),
      handler: async function* (_input, { signal }) {
        yield { n: 0 };
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        seen.aborted += 1;
      },
    }),
  ],
};

/** A host whose test adapter mounts the streams through the adapter HTTP mount (the built-in SSE and WebSocket transports stay off, so a host that mounts streams itself does not mount them twice). */
function streamsHost() {
  return startTestHost({
    configuration: { Engine: { Transports: ['RestApi', 'JsonRpc'] } },
    setup: (builder) => {
      builder.addModule(ticks);
      builder.provide(transportAdapterKey('JsonRpc'), {
        name: 'JsonRpc',
        mount: ({ engine, http }) =>
          void mountBehaviorStreams(engine, http!, { serverSentEvents: true, webSocket: true }),
      });
    },
  });
}

function events(text: string) {
  return text
    .trim()
    .split('\n\n')
    .map((frame) => {
      const lines = Object.fromEntries(
        frame.split('\n').map((line) => [line.split(': ')[0], line.slice(line.indexOf(': ') + 2)]),
      );
      return { event: lines.event, data: JSON.parse(lines.data) };
    });
}

function messages(url: string): Promise<{ frames: any[]; code: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const frames: any[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(String(data))));
    socket.on('close', (code) => resolve({ frames, code }));
    socket.on('error', reject);
  });
}

describe('streaming behaviors over server-sent events and WebSocket', () => {
  it('streams each item then an end event over SSE', async () => {
    const test = await streamsHost();
    const answer = await test.request(`/streams/ticks.count?input=${encodeURIComponent('{"to":3}')}`);
    expect(answer.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(events(answer.text)).toEqual([
      { event: 'item', data: { n: 1 } },
      { event: 'item', data: { n: 2 } },
      { event: 'item', data: { n: 3 } },
      { event: 'end', data: {} },
    ]);
  });

  it('answers problem details for invalid input before the stream opens, an error event for a mid-stream failure', async () => {
    const test = await streamsHost();
    const invalid = await test.request(`/streams/ticks.count?input=${encodeURIComponent('{"to":99}')}`);
    expect([invalid.status, invalid.body.code]).toEqual([400, 'BEHAVIOR_INPUT_INVALID']);
    const failing = await test.request('/streams/ticks.fail');
    expect(events(failing.text)).toEqual([
      { event: 'item', data: { n: 1 } },
      {
        event: 'error',
        data: { type: 'error', status: 409, code: 'TICKS_CONFLICT', message: 'the second tick clashed' },
      },
    ]);
    expect((await test.request('/streams/ticks.nope')).status).toBe(404);
  });

  it('streams the same items over WebSocket and closes 1000; errors close 4000 + status', async () => {
    const test = await streamsHost();
    const ws = test.base.replace('http', 'ws');
    const counted = await messages(`${ws}/streams/ticks.count/ws?input=${encodeURIComponent('{"to":2}')}`);
    expect(counted).toEqual({
      frames: [{ type: 'item', data: { n: 1 } }, { type: 'item', data: { n: 2 } }, { type: 'end' }],
      code: 1000,
    });
    const invalid = await messages(`${ws}/streams/ticks.count/ws?input=${encodeURIComponent('{"to":0}')}`);
    expect([invalid.frames[0].code, invalid.code]).toEqual(['BEHAVIOR_INPUT_INVALID', 4400]);
    expect((await messages(`${ws}/streams/ticks.fail/ws`)).code).toBe(4409);
  });

  it('aborts the handler when the client leaves', async () => {
    const test = await streamsHost();
    const before = seen.aborted;
    const socket = new WebSocket(`${test.base.replace('http', 'ws')}/streams/ticks.forever/ws`);
    await new Promise((resolve) => socket.once('message', resolve));
    socket.close();
    while (seen.aborted === before) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.aborted).toBe(before + 1);
  });

  it('asks the authorize hook with the behavior policy before an SSE stream or a WebSocket upgrade opens', async () => {
    const asked: Array<string | null> = [];
    const test = await startTestHost({
      configuration: { Engine: { Transports: ['RestApi', 'ServerSentEvents', 'WebSocket'] } },
      setup: (builder) =>
        builder.addModule({
          id: 'vault',
          version: '1.0.0',
          behaviors: [
            defineBehavior({
              id: 'vault.watch',
              input: z.object({}),
              output: streamingOutput(z.object({ n: z.number() })),
              authorization: { mode: 'required', policy: 'vault.read' },
              handler: async function* () {
                yield { n: 1 };
              },
            }),
          ],
        }),
      host: {
        authorize: (request, requirement) => {
          asked.push(requirement?.policy ?? null);
          if (request.headers.authorization === 'Bearer reader') return true;
          return request.headers.authorization ? { outcome: 'forbidden' } : { outcome: 'unauthenticated' };
        },
      },
    });
    const ws = `${test.base.replace('http', 'ws')}/streams/vault.watch/ws`;
    const upgrade = (headers: Record<string, string>) =>
      new Promise<string>((resolve) => {
        const socket = new WebSocket(ws, { headers });
        const frames: string[] = [];
        socket.on('unexpected-response', (_request, response) => {
          resolve(`refused ${response.statusCode}`);
          response.resume();
          socket.terminate();
        });
        socket.on('message', (data) => frames.push(JSON.parse(String(data)).type));
        socket.on('close', (code) => resolve(`closed ${code} ${frames.join(',')}`));
        socket.on('error', () => undefined);
      });
    expect(await upgrade({})).toBe('refused 401');
    expect(await upgrade({ authorization: 'Bearer other' })).toBe('refused 403');
    expect(await upgrade({ authorization: 'Bearer reader' })).toBe('closed 1000 item,end');
    const anonymous = await test.request('/streams/vault.watch');
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'BEHAVIOR_UNAUTHENTICATED']);
    const allowed = await test.request('/streams/vault.watch', {
      headers: { authorization: 'Bearer reader' },
    });
    expect(events(allowed.text).map((event) => event.event)).toEqual(['item', 'end']);
    expect(asked).toEqual(Array(5).fill('vault.read'));
  });
});
