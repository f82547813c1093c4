import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createEngineBuilder } from '@corekit/engine-core';
import { captureLogger } from '@corekit/testing/capture-logger';
import { addMemcachedHealth } from './add-memcached-health';
import { memcachedHealthOptionsSchema, type MemcachedHealthOptions } from './memcached-health-options';

const contentRoot = mkdtempSync(path.join(os.tmpdir(), 'probe-memcached-unit-'));

/** A TCP server that records what each client sends and answers the first line with `answer` (null: hang up). */
async function lineServer(answer: string | null) {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    let text = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (!text.includes('\n')) return;
      received.push(text);
      if (answer === null) socket.destroy();
      else socket.write(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function probeOnce(options: MemcachedHealthOptions, environment: Record<string, string> = {}) {
  const logger = captureLogger();
  const builder = createEngineBuilder({ contentRoot, environment, logger });
  addMemcachedHealth(builder, options);
  const engine = builder.build();
  await engine.refreshDependencies();
  return engine.dependencies();
}

describe('memcached probe (text protocol on a recording fake)', () => {
  it.each([
    ['VERSION 1.6.18\r\n', '1.6.18'],
    ['VERSION 1.4.5-mcrouter\r\n', '1.4.5-mcrouter'],
    ['VERSION 1.6.21\n', '1.6.21'],
  ])('is Healthy when version answers %j and publishes the version', async (answer, version) => {
    const fake = await lineServer(answer);
    try {
      const [entry] = await probeOnce({
        Dependencies: [{ Id: 'cache', Host: '127.0.0.1', Port: fake.port }],
      });
      expect(entry).toMatchObject({ status: 'Healthy', data: { version } });
      expect(fake.received).toEqual(['version\r\n']);
    } finally {
      await fake.close();
    }
  });

  it.each([
    'ERROR\r\n',
    'VERSION\r\n',
    'VERSION 1.6\r\n',
    'VERSION abc\r\n',
    'SERVER_ERROR out of memory\r\n',
    '+PONG\r\n',
  ])('is Unhealthy with UNEXPECTED_RESPONSE when version answers %j', async (answer) => {
    const fake = await lineServer(answer);
    try {
      const [entry] = await probeOnce({
        Dependencies: [{ Id: 'cache', Host: '127.0.0.1', Port: fake.port }],
      });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('UNEXPECTED_RESPONSE');
      expect(entry.error?.message).toContain(JSON.stringify(answer.replace(/\r?\n$/, '')));
      expect(entry.error?.message).toMatch(/Check that Host and Port point at a memcached server/);
    } finally {
      await fake.close();
    }
  });

  it('is Unhealthy with ECONNRESET when the server hangs up without answering', async () => {
    const fake = await lineServer(null);
    try {
      const [entry] = await probeOnce({
        Dependencies: [{ Id: 'cache', Host: '127.0.0.1', Port: fake.port }],
      });
      expect(entry).toMatchObject({ status: 'Unhealthy', timedOut: false, error: { code: 'ECONNRESET' } });
    } finally {
      await fake.close();
    }
  });

  it('reads Host and Port from configuration, with strings from environment variables and the default port', async () => {
    const prefix = 'Engine__Observability__DependencyHealth__Memcached__';
    const builder = createEngineBuilder({
      contentRoot,
      logger: captureLogger(),
      environment: {
        [`${prefix}RefreshIntervalSeconds`]: '7',
        [`${prefix}Dependencies__0__Id`]: 'cache',
        [`${prefix}Dependencies__0__Host`]: 'cache.internal',
      },
    });
    addMemcachedHealth(builder);
    const [entry] = builder.build().dependencies();
    expect(entry).toMatchObject({ id: 'cache', kind: 'Memcached', refreshIntervalSeconds: 7, data: {} });
    const parsed = memcachedHealthOptionsSchema.parse({
      Dependencies: [{ Id: 'cache', Host: 'cache.internal', Port: '11311' }],
    });
    expect(parsed.Dependencies[0]).toMatchObject({
      Host: 'cache.internal',
      Port: 11311,
      Required: true,
      TimeoutSeconds: 5,
    });
    expect(
      memcachedHealthOptionsSchema.parse({ Dependencies: [{ Id: 'cache', Host: 'h' }] }).Dependencies[0].Port,
    ).toBe(11211);
  });

  it.each([
    [{ Id: 'cache' }, 'Engine:Observability:DependencyHealth:Memcached:Dependencies:0:Host', /is required/],
    [
      { Id: 'cache', Host: 'h', Port: 70000 },
      'Engine:Observability:DependencyHealth:Memcached:Dependencies:0:Port',
      /port number/,
    ],
  ])(
    'fails registration with CONFIGURATION_INVALID naming the key path for %j',
    (dependency, keyPath, why) => {
      const builder = createEngineBuilder({ contentRoot, environment: {}, logger: captureLogger() });
      let caught: unknown;
      try {
        addMemcachedHealth(builder, { Dependencies: [dependency as never] });
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: 'CONFIGURATION_INVALID' });
      expect((caught as Error).message).toContain(keyPath);
      expect((caught as Error).message).toMatch(why);
    },
  );
});
