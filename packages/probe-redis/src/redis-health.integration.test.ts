import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { expectRecoveryAcrossRestart } from '@corekit/testing/probe-restart';
import { probeRunner, type ProbeRun } from '@corekit/testing/probe-runner';
import { realService } from '@corekit/testing/real-service';
import { startRedisServer, type RedisServerProcess } from '@corekit/testing/servers/redis-server';
import { addRedisHealth } from './add-redis-health';
import type { RedisHealthOptions } from './redis-health-options';

const contentRoot = mkdtempSync(path.join(os.tmpdir(), 'probe-redis-'));
const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const shared = { Host: redisUrl.hostname, Port: Number(redisUrl.port || 6379) };
const { probeOnce, engineWith } = probeRunner<RedisHealthOptions>(addRedisHealth, { contentRoot });

/** Commands seen by MONITOR, grouped by client address (`127.0.0.1:53122`), lower-cased. */
async function monitorWhile(
  server: { host: string; port: number },
  work: () => Promise<unknown>,
): Promise<Map<string, string[][]>> {
  const client = new Redis({
    host: server.host,
    port: server.port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  const byClient = new Map<string, string[][]>();
  try {
    await client.connect();
    const monitor = await client.monitor();
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      const address = source.split(' ').pop()!;
      byClient.set(address, [
        ...(byClient.get(address) ?? []),
        args.map((arg, index) => (index === 0 ? arg.toLowerCase() : arg)),
      ]);
    });
    await work();
    // MONITOR streams asynchronously: wait until a marker command sent after the work has come through.
    const marker = `corekit-monitor-marker-${Date.now()}`;
    const other = client.duplicate();
    try {
      await other.echo(marker);
    } finally {
      other.disconnect();
    }
    const deadline = Date.now() + 5000;
    while (
      ![...byClient.values()].flat().some(([name, argument]) => name === 'echo' && argument === marker) &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    monitor.disconnect();
  } finally {
    client.disconnect();
  }
  return byClient;
}

describe('addRedisHealth against the Redis server on this machine', () => {
  const redis = realService('Redis', redisUrl.href, 'REDIS_URL');

  redis.it('is Healthy when PING answers PONG, and logs event 3120', async () => {
    const { entry, logger } = await probeOnce({ Dependencies: [{ Id: 'cache', ...shared }] });
    expect(entry).toMatchObject({
      kind: 'Redis',
      status: 'Healthy',
      error: null,
      data: { target: `${shared.Host}:${shared.Port}` },
    });
    expect(logger.withEventId(3120)).toHaveLength(1);
  });

  redis.it(
    'selects the configured logical database on the wire before PING, and sends nothing else',
    async () => {
      let entry: ProbeRun['entry'] | undefined;
      const seen = await monitorWhile({ host: shared.Host, port: shared.Port }, async () => {
        entry = (await probeOnce({ Dependencies: [{ Id: 'cache', ...shared, Database: 5 }] })).entry;
      });
      expect(entry).toMatchObject({
        status: 'Healthy',
        data: { database: 5, target: `${shared.Host}:${shared.Port}/5` },
      });
      const probeClients = [...seen.values()].filter((commands) =>
        commands.some(([name, argument]) => name === 'select' && argument === '5'),
      );
      expect(probeClients).toEqual([[['select', '5'], ['ping']]]);
    },
  );

  redis.it('sends no SELECT when Database is not configured', async () => {
    const seen = await monitorWhile({ host: shared.Host, port: shared.Port }, () =>
      probeOnce({ Dependencies: [{ Id: 'cache', ...shared }] }),
    );
    const commands = [...seen.values()].flat();
    expect(commands.filter(([name]) => name === 'select')).toEqual([]);
  });

  redis.it(
    'is Unhealthy with DATABASE_SELECT_FAILED naming the key path when the database does not exist',
    async () => {
      const { entry, logger } = await probeOnce({
        Dependencies: [{ Id: 'cache', ...shared, Database: 4096 }],
      });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('DATABASE_SELECT_FAILED');
      expect(entry.error?.message).toContain('DB index is out of range');
      expect(entry.error?.message).toContain(
        'Engine:Observability:DependencyHealth:Redis:Dependencies:0:Database',
      );
      expect(logger.withEventId(3121)).toHaveLength(1);
    },
  );
});

describe('addRedisHealth against a private redis-server with authentication', () => {
  const password = 'default-user-pw-4e1';
  const aclPassword = 'acl-user-pw-8c2';
  let server: RedisServerProcess;
  beforeAll(async () => {
    server = await startRedisServer({ password, users: { monitor: aclPassword } });
  });
  afterAll(() => server.stop());

  it('is Healthy with the default user password and with an ACL user, and publishes neither password', async () => {
    const { engine, logger } = await probeOnce({
      Dependencies: [
        { Id: 'default-user', Host: server.host, Port: server.port, Password: password },
        { Id: 'acl-user', Host: server.host, Port: server.port, Username: 'monitor', Password: aclPassword },
      ],
    });
    expect(engine.dependencies().map((entry) => [entry.id, entry.status])).toEqual([
      ['default-user', 'Healthy'],
      ['acl-user', 'Healthy'],
    ]);
    const published = JSON.stringify([engine.dependencies(), engine.snapshot(), logger.records]);
    expect(published).not.toContain(password);
    expect(published).not.toContain(aclPassword);
  });

  it.each([
    ['a wrong password', { Password: 'not-the-password' }, /refused AUTH: WRONGPASS/],
    [
      'a wrong ACL user',
      { Username: 'nobody', Password: aclPassword },
      /refused AUTH for user "nobody": WRONGPASS/,
    ],
    ['no password', {}, /requires authentication: NOAUTH/],
  ])('is Unhealthy with AUTHENTICATION_FAILED for %s', async (_case, credentials, message) => {
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'cache', Host: server.host, Port: server.port, ...credentials }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(entry.error?.message).toMatch(message);
    expect(entry.error?.message).toMatch(
      /Engine:Observability:DependencyHealth:Redis:Dependencies:0:Password/,
    );
    expect(entry.error?.message).not.toContain(aclPassword);
  });
});

describe('addRedisHealth when its server stops and restarts', () => {
  it('turns Unhealthy on the next refresh after the server stops, and Healthy again after a restart', async () => {
    const server = await startRedisServer();
    try {
      const { engine, logger } = engineWith({
        Dependencies: [{ Id: 'cache', Host: server.host, Port: server.port, Database: 1 }],
      });
      await expectRecoveryAcrossRestart({
        engine,
        logger,
        server,
        healthyEventId: 3120,
        unhealthyEventId: 3121,
      });
    } finally {
      await server.stop();
    }
  });
});
