export { addMemcachedHealth } from './add-memcached-health';
export { memcachedHealthProbe } from './memcached-health-probe';
export { memcachedHealthEntryShape, memcachedHealthOptionsSchema } from './memcached-health-options';
export type { MemcachedHealthOptions } from './memcached-health-options';
