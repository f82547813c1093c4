import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { requireService } from '@corekit/testing/require-service';
import { addMemcachedHealth } from './add-memcached-health';
import type { MemcachedHealthOptions } from './memcached-health-options';

const memcachedUrl = process.env.MEMCACHED_URL ?? 'memcached://127.0.0.1:11211';

describeProbeConformance({
  kind: 'Memcached',
  add: (builder, options) => addMemcachedHealth(builder, options as unknown as MemcachedHealthOptions),
  healthyUpstream: async () => {
    if (!(await requireService('memcached', memcachedUrl, 'MEMCACHED_URL'))) {
      throw new Error(
        `memcached is not reachable at ${memcachedUrl}; start it (memcached -d -u root -l 127.0.0.1 -p 11211) or set MEMCACHED_URL`,
      );
    }
    const url = new URL(memcachedUrl);
    return { entry: { Host: url.hostname, Port: Number(url.port || 11211) }, close: async () => undefined };
  },
});
