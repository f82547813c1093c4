import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LogRecord } from '@corekit/abstractions';
import type { WorkerHost } from '@corekit/worker-host';
import { HostListener, listenUrl, type HostListenerParts } from './host-listener';
import { listenErrorCodes } from './listen-error';
import { webHostFailurePhases } from './start-failure-gate';
import { webHostEventIds } from './web-host-event-ids';

const opened: Server[] = [];
afterEach(async () => {
  for (const server of opened.splice(0)) {
    await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  }
});

function fakeWorkerHost(options: { endsOnStartFailure: boolean; startFails?: boolean }) {
  const calls: string[] = [];
  const failures: Array<{ phase: string; code: unknown }> = [];
  const workerHost = {
    endsOnStartFailure: options.endsOnStartFailure,
    checkConfiguration: async () => void calls.push('checkConfiguration'),
    start: async () => {
      calls.push('start');
      if (options.startFails) throw new Error('a pack failed to start');
    },
    recordStartFailure: async (phase: string, error: unknown) =>
      void failures.push({ phase, code: (error as { code?: unknown }).code }),
  } as unknown as WorkerHost;
  return { workerHost, calls, failures };
}

function listenerOf(workerHost: WorkerHost, port: number, overrides: Partial<HostListenerParts> = {}) {
  const records: LogRecord[] = [];
  let afterStart = 0;
  const listener = new HostListener({
    workerHost,
    logger: { log: (record) => void records.push(record) },
    port: () => port,
    bindAddress: '127.0.0.1',
    handler: (_request, response) => response.end('served'),
    upgrade: (_request, socket) => socket.destroy(),
    transports: ['RestApi'],
    afterStart: () => void afterStart++,
    ...overrides,
  });
  return { listener, records, afterStarts: () => afterStart };
}

describe('HostListener', () => {
  it('checks the configuration, listens, logs, starts the engine, then runs afterStart; once', async () => {
    const { workerHost, calls } = fakeWorkerHost({ endsOnStartFailure: true });
    const { listener, records, afterStarts } = listenerOf(workerHost, 0);
    const address = await listener.listen();
    opened.push(listener.server!);
    expect(address.url).toBe(`http://127.0.0.1:${address.port}`);
    expect(await (await fetch(address.url)).text()).toBe('served');
    expect(calls).toEqual(['checkConfiguration', 'start']);
    expect(records.map((record) => record.eventId)).toEqual([webHostEventIds.listening]);
    expect(afterStarts()).toBe(1);
    expect(await listener.listen()).toBe(address);
    expect(calls).toEqual(['checkConfiguration', 'start']);
  });

  it('records a port it cannot bind as a listen start failure and rejects with the listen error', async () => {
    const taken = createServer();
    opened.push(taken);
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { workerHost, calls, failures } = fakeWorkerHost({ endsOnStartFailure: true });
    const { listener } = listenerOf(workerHost, (taken.address() as AddressInfo).port);
    await expect(listener.listen()).rejects.toMatchObject({ code: listenErrorCodes.portInUse });
    expect(failures).toEqual([{ phase: webHostFailurePhases.listen, code: listenErrorCodes.portInUse }]);
    expect(calls).toEqual(['checkConfiguration']);
    expect(listener.server).toBeUndefined();
  });

  it('resolves after a failed start that does not end the process; rejects when it does', async () => {
    const kept = fakeWorkerHost({ endsOnStartFailure: false, startFails: true });
    const keeping = listenerOf(kept.workerHost, 0);
    await keeping.listener.listen();
    opened.push(keeping.listener.server!);
    expect(kept.calls).toEqual(['start']);
    expect(keeping.afterStarts()).toBe(1);

    const ended = fakeWorkerHost({ endsOnStartFailure: true, startFails: true });
    const ending = listenerOf(ended.workerHost, 0);
    await expect(ending.listener.listen()).rejects.toThrow('a pack failed to start');
    opened.push(ending.listener.server!);
    expect(ending.afterStarts()).toBe(0);
  });
});

describe('listenUrl', () => {
  it('shows localhost for the wildcard addresses and an IPv6 address in brackets', () => {
    expect(listenUrl(8080, undefined)).toBe('http://localhost:8080');
    expect(listenUrl(8080, '0.0.0.0')).toBe('http://localhost:8080');
    expect(listenUrl(8080, '::')).toBe('http://localhost:8080');
    expect(listenUrl(8080, '::1')).toBe('http://[::1]:8080');
    expect(listenUrl(8080, '10.0.0.5')).toBe('http://10.0.0.5:8080');
  });
});
