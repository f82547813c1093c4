import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createEngineBuilder } from '@corekit/engine-core';
import { captureLogger } from '@corekit/testing/capture-logger';
import { addRedisHealth } from './add-redis-health';
import { redisHealthOptionsSchema, type RedisHealthOptions } from './redis-health-options';

const contentRoot = mkdtempSync(path.join(os.tmpdir(), 'probe-redis-unit-'));

/**
 * A RESP server on loopback: answers every command array with `answer(commandName)` (raw RESP), or hangs up
 * on the first command when `answer` returns null. Records accepted connections and command names.
 */
async function respServer(answer: (command: string) => string | null) {
  const commands: string[] = [];
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted += 1;
    let buffer = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      // Commands arrive as arrays of bulk strings: *<n>\r\n$<len>\r\n<name>\r\n...
      for (;;) {
        const match = /^\*(\d+)\r\n/.exec(buffer);
        if (!match) return;
        const lines = buffer.split('\r\n');
        const needed = 1 + Number(match[1]) * 2;
        if (lines.length <= needed) return;
        const name = lines[2].toLowerCase();
        buffer = lines.slice(needed).join('\r\n');
        commands.push(name);
        const reply = answer(name);
        if (reply === null) {
          socket.destroy();
          return;
        }
        socket.write(reply);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    commands,
    get accepted() {
      return accepted;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function probeOnce(options: RedisHealthOptions) {
  const builder = createEngineBuilder({ contentRoot, environment: {}, logger: captureLogger() });
  addRedisHealth(builder, options);
  const engine = builder.build();
  await engine.refreshDependencies();
  return engine.dependencies()[0];
}

function registrationError(options: RedisHealthOptions): Error & { code?: string } {
  const builder = createEngineBuilder({ contentRoot, environment: {}, logger: captureLogger() });
  try {
    addRedisHealth(builder, options);
  } catch (error) {
    return error as Error;
  }
  throw new Error('addRedisHealth accepted the options');
}

describe('Redis probe (RESP fake)', () => {
  it('is Unhealthy with UNEXPECTED_RESPONSE when PING answers something other than PONG', async () => {
    const fake = await respServer(() => '+PANG\r\n');
    try {
      const entry = await probeOnce({ Dependencies: [{ Id: 'cache', Host: '127.0.0.1', Port: fake.port }] });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error).toEqual({
        code: 'UNEXPECTED_RESPONSE',
        message: expect.stringContaining('"PANG" instead of PONG'),
      });
      expect(fake.commands).toEqual(['ping']);
    } finally {
      await fake.close();
    }
  });

  it('pipelines AUTH, SELECT and PING in that order and sends nothing else (no CLIENT SETINFO, no INFO ready check)', async () => {
    const fake = await respServer((command) => (command === 'ping' ? '+PONG\r\n' : '+OK\r\n'));
    try {
      const entry = await probeOnce({
        Dependencies: [
          {
            Id: 'cache',
            Host: '127.0.0.1',
            Port: fake.port,
            Username: 'probe',
            Password: 'pw-1',
            Database: 3,
          },
        ],
      });
      expect(entry.status).toBe('Healthy');
      expect(fake.commands).toEqual(['auth', 'select', 'ping']);
    } finally {
      await fake.close();
    }
  });

  it('makes one connection attempt per run, with no retry or reconnect, when the server hangs up', async () => {
    const fake = await respServer(() => null);
    try {
      const entry = await probeOnce({ Dependencies: [{ Id: 'cache', Host: '127.0.0.1', Port: fake.port }] });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.timedOut).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fake.accepted).toBe(1);
      expect(fake.commands).toEqual(['ping']);
    } finally {
      await fake.close();
    }
  });
});

describe('Redis probe configuration', () => {
  it('reads the section from environment variables, with the default port and numbers given as strings', () => {
    const prefix = 'Engine__Observability__DependencyHealth__Redis__';
    const builder = createEngineBuilder({
      contentRoot,
      logger: captureLogger(),
      environment: {
        [`${prefix}Dependencies__0__Id`]: 'cache',
        [`${prefix}Dependencies__0__Host`]: 'cache.internal',
        [`${prefix}Dependencies__0__Database`]: '2',
        [`${prefix}Dependencies__0__Required`]: 'false',
      },
    });
    addRedisHealth(builder);
    const [entry] = builder.build().dependencies();
    expect(entry).toMatchObject({ id: 'cache', kind: 'Redis', required: false, data: {} });
    const parsed = redisHealthOptionsSchema.parse({
      Dependencies: [{ Id: 'cache', Host: 'h', Database: '2' }],
    });
    expect(parsed.Dependencies[0]).toMatchObject({ Host: 'h', Port: 6379, Database: 2 });
  });

  it.each([
    [{ Id: 'cache' }, 'Dependencies:0:Host', /is required/],
    [
      { Id: 'cache', Host: 'h', Username: 'probe' },
      'Dependencies:0:Password',
      /required when Username is set/,
    ],
    [{ Id: 'cache', Host: 'h', Database: -1 }, 'Dependencies:0:Database', /non-negative integer/],
    [{ Id: 'cache', Host: 'h', Database: 1.5 }, 'Dependencies:0:Database', /non-negative integer/],
    [{ Id: 'cache', Host: 'h', Password: '<REDIS_PASSWORD>' }, 'Dependencies:0:Password', /placeholder/],
  ])('refuses %j with CONFIGURATION_INVALID naming the key path', (dependency, key, why) => {
    const error = registrationError({ Dependencies: [dependency as never] });
    expect(error.code).toBe('CONFIGURATION_INVALID');
    expect(error.message).toContain(`Engine:Observability:DependencyHealth:Redis:${key}`);
    expect(error.message).toMatch(why);
  });
});
