import {
  connectTcp,
  createLineReader,
  formatHostPort,
  healthy,
  unhealthy,
  type ProbeDefinition,
} from '@corekit/probe-kit';
import { memcachedHealthEntryShape, validateMemcachedHealthEntry } from './memcached-health-options';

/** `VERSION 1.6.18`, optionally with a suffix some builds add (`1.4.5-mcrouter`, `1.6.9_abc`). */
const versionLine = /^VERSION (\d+\.\d+\.\d+)([-+_.~][\x21-\x7e]*)?$/;

/** At most 80 characters of what the server said, quoted and with control characters escaped. */
function shown(line: string): string {
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}...` : line);
}

/**
 * The memcached probe: opens a dedicated TCP connection, sends the text-protocol `version` command and
 * requires a `VERSION x.y.z` line back. It reads nothing else and writes no key.
 */
export const memcachedHealthProbe: ProbeDefinition<typeof memcachedHealthEntryShape> = {
  kind: 'Memcached',
  entryShape: memcachedHealthEntryShape,
  validateEntry: validateMemcachedHealthEntry,
  describeTarget: (entry) => formatHostPort(entry.Host!, entry.Port),
  async check(entry, { signal }) {
    const target = formatHostPort(entry.Host!, entry.Port);
    const socket = await connectTcp({ host: entry.Host!, port: entry.Port, signal });
    const reader = createLineReader(socket, signal);
    try {
      socket.write('version\r\n');
      const line = await reader.readLine();
      const match = versionLine.exec(line);
      if (!match) {
        return unhealthy(
          'UNEXPECTED_RESPONSE',
          `${target} answered the version command with ${shown(line)} instead of "VERSION x.y.z". Check that Host and Port point at a memcached server (text protocol enabled).`,
        );
      }
      const version = `${match[1]}${match[2] ?? ''}`;
      return healthy(`memcached ${version} at ${target}`, { version });
    } finally {
      reader.close();
      socket.destroy();
    }
  },
};
