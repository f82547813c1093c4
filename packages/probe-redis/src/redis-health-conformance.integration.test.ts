import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { requireService } from '@corekit/testing/require-service';
import { startRedisServer, type RedisServerProcess } from '@corekit/testing/servers/redis-server';
import { addRedisHealth } from './add-redis-health';
import type { RedisHealthOptions } from './redis-health-options';

const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const add = (builder: Parameters<typeof addRedisHealth>[0], options: unknown) =>
  addRedisHealth(builder, options as RedisHealthOptions);

describe('against the Redis server on this machine', () => {
  describeProbeConformance({
    kind: 'Redis',
    add,
    healthyUpstream: async () => {
      if (!(await requireService('Redis', redisUrl.href, 'REDIS_URL'))) {
        throw new Error(`Redis is not reachable at ${redisUrl.host}; start it or set REDIS_URL`);
      }
      return {
        entry: { Host: redisUrl.hostname, Port: Number(redisUrl.port || 6379) },
        close: async () => undefined,
      };
    },
  });
});

describe('against a private redis-server with a password and an ACL user', () => {
  const password = 'conformance-Redis-pw-7Q';
  const userPassword = 'acl-user-secret-93x';
  let server: RedisServerProcess | undefined;
  afterAll(() => server?.stop());

  describeProbeConformance({
    kind: 'Redis',
    add,
    healthyUpstream: async () => {
      server ??= await startRedisServer({ password, users: { monitor: userPassword } });
      return {
        entry: { Host: server.host, Port: server.port, Username: 'monitor', Password: userPassword },
        secrets: [userPassword],
        close: async () => undefined,
      };
    },
  });
});
