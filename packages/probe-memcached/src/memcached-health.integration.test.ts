import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { manualClock } from '@corekit/engine-core';
import { expectRecoveryAcrossRestart } from '@corekit/testing/probe-restart';
import { probeRunner } from '@corekit/testing/probe-runner';
import { requireService } from '@corekit/testing/require-service';
import { startMemcachedServer } from '@corekit/testing/servers/memcached-server';
import { addMemcachedHealth } from './add-memcached-health';
import type { MemcachedHealthOptions } from './memcached-health-options';

const contentRoot = mkdtempSync(path.join(os.tmpdir(), 'probe-memcached-'));
const memcachedUrl = new URL(process.env.MEMCACHED_URL ?? 'memcached://127.0.0.1:11211');
const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const { probeOnce, engineWith } = probeRunner<MemcachedHealthOptions>(addMemcachedHealth, {
  contentRoot,
  clock: manualClock(Date.UTC(2025, 0, 1)),
});

describe('addMemcachedHealth against real servers', () => {
  it('is Healthy against the memcached server on this machine and reports its version', async () => {
    if (!(await requireService('memcached', memcachedUrl.href, 'MEMCACHED_URL'))) return;
    const { entry, logger } = await probeOnce({
      Dependencies: [
        { Id: 'sessions', Host: memcachedUrl.hostname, Port: Number(memcachedUrl.port || 11211) },
      ],
    });
    expect(entry).toMatchObject({ id: 'sessions', kind: 'Memcached', status: 'Healthy', error: null });
    expect(entry.data.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(entry.data.target).toBe(`${memcachedUrl.hostname}:${memcachedUrl.port || 11211}`);
    expect(logger.withEventId(3140)).toHaveLength(1);
  });

  it('is Unhealthy with UNEXPECTED_RESPONSE when the port speaks another protocol (the Redis server)', async () => {
    if (!(await requireService('Redis', redisUrl.href, 'REDIS_URL'))) return;
    const { entry, logger } = await probeOnce({
      Dependencies: [{ Id: 'sessions', Host: redisUrl.hostname, Port: Number(redisUrl.port || 6379) }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error).toEqual({
      code: 'UNEXPECTED_RESPONSE',
      message: expect.stringContaining('instead of "VERSION x.y.z"'),
    });
    expect(entry.error?.message).toContain('-ERR');
    expect(logger.withEventId(3141)).toHaveLength(1);
  });

  it('turns Unhealthy on the next refresh after its own server stops, and Healthy again after a restart', async () => {
    const server = await startMemcachedServer();
    try {
      const version = execFileSync('memcached', ['-V'], { encoding: 'utf8' }).trim().split(/\s+/)[1];
      const { engine, logger } = engineWith({
        Dependencies: [{ Id: 'cache', Host: server.host, Port: server.port }],
      });
      await expectRecoveryAcrossRestart({
        engine,
        logger,
        server,
        healthyEventId: 3140,
        unhealthyEventId: 3141,
        healthyEntry: { data: { version } },
      });
    } finally {
      await server.stop();
    }
  });
});
