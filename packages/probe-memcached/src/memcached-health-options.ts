import { z } from 'zod';
import { portField, probeSectionSchema, type ProbeOptions } from '@corekit/probe-kit';

/** Fields of one `Engine:Observability:DependencyHealth:Memcached:Dependencies:<n>` entry, besides the common ones. */
export const memcachedHealthEntryShape = {
  /** Host name or IP address of the memcached server (an IPv6 literal without brackets). Required. */
  Host: z.string().trim().optional().describe('host name or IP address of the memcached server; required'),
  /** TCP port of the server; default 11211. The text protocol has no TLS or authentication to configure. */
  Port: portField('TCP port of the memcached server; default 11211').default(11211),
};

/** Code options of addMemcachedHealth, in the configuration's shape. */
export type MemcachedHealthOptions = ProbeOptions<typeof memcachedHealthEntryShape>;

/** Host is required; it is optional in the shape so the error can say what to set. */
export function validateMemcachedHealthEntry(
  entry: { Host?: string },
  issue: (field: string, message: string) => void,
): void {
  if (!entry.Host)
    issue(
      'Host',
      'is required: the host name or IP address of the memcached server, for example cache.internal',
    );
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:Memcached` section. */
export const memcachedHealthOptionsSchema = probeSectionSchema({
  entryShape: memcachedHealthEntryShape,
  validateEntry: validateMemcachedHealthEntry,
});
