import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import {
  nonNegativeIntegerField,
  portField,
  probeSectionSchema,
  type ProbeOptions,
} from '@corekit/probe-kit';

/** Fields of one `Engine:Observability:DependencyHealth:Redis:Dependencies:<n>` entry, besides the common ones. */
export const redisHealthEntryShape = {
  /** Host name or IP address of the Redis server (an IPv6 literal without brackets). Required. */
  Host: z.string().trim().optional().describe('host name or IP address of the Redis server; required'),
  /** TCP port of the server; default 6379. */
  Port: portField('TCP port of the Redis server; default 6379').default(6379),
  /**
   * ACL user name (Redis 6+), sent as `AUTH <username> <password>`. Needs Password. Omitted: `AUTH <password>`
   * authenticates the default user.
   */
  Username: z
    .string()
    .min(1, 'must be a non-empty string')
    .optional()
    .describe('ACL user name; needs Password'),
  /** Password sent with AUTH before anything else. Omitted: no AUTH is sent. A secret: supply it from the environment. */
  Password: secretString('password sent with AUTH; supply it from the environment').optional(),
  /**
   * Logical database selected with SELECT before PING (0-based). Omitted: no SELECT is sent and the
   * connection stays on the server's default database 0. A number the server does not have is Unhealthy.
   */
  Database: nonNegativeIntegerField(
    'logical database selected before PING; omitted sends no SELECT',
  ).optional(),
};

/** Code options of addRedisHealth, in the configuration's shape. */
export type RedisHealthOptions = ProbeOptions<typeof redisHealthEntryShape>;

/** Host is required; a user name needs a password. */
export function validateRedisHealthEntry(
  entry: { Host?: string; Username?: string; Password?: string },
  issue: (field: string, message: string) => void,
): void {
  if (!entry.Host)
    issue('Host', 'is required: the host name or IP address of the Redis server, for example cache.internal');
  if (entry.Username !== undefined && entry.Password === undefined) {
    issue('Password', 'is required when Username is set: AUTH needs both the user name and its password');
  }
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:Redis` section. */
export const redisHealthOptionsSchema = probeSectionSchema({
  entryShape: redisHealthEntryShape,
  validateEntry: validateRedisHealthEntry,
});
