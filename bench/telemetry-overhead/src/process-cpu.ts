import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on Linux). */
const ticksPerSecond = 100;

/**
 * CPU time (user + system, every thread) a process has used so far, in microseconds, from `/proc/<pid>/stat`
 * (fields 14 and 15). On a machine shared with other work, CPU per request is steadier than requests per second:
 * wall time also counts the time the process waited for a core.
 */
export function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return ((user + system) / ticksPerSecond) * 1_000_000;
}
