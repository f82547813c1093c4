import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * A new engine instance id: host name, process id and a random part, so two engines in one process differ and
 * a restarted process is a new instance. Packs name it as the owner of work they hold under a lease.
 */
export function newInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}
