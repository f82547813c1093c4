export { addRedisHealth } from './add-redis-health';
export { redisHealthProbe } from './redis-health-probe';
export { redisHealthEntryShape, redisHealthOptionsSchema } from './redis-health-options';
export type { RedisHealthOptions } from './redis-health-options';
