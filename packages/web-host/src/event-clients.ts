import type { Engine, Logger, RuntimeEvent } from '@corekit/abstractions';
import { webHostEventIds } from './web-host-event-ids';

/** One connected live-transport client (a server-sent event stream or a WebSocket). */
export interface EventClient {
  readonly transport: 'ServerSentEvents' | 'WebSocket';
  /** Sends one event; `id` increases by one per event of this host. */
  send(event: RuntimeEvent, id: number): void;
  /** Bytes written but not yet flushed to the socket. */
  bufferedBytes(): number;
  /** Ends the connection; `reason` is for the log. */
  close(reason: 'shutdown' | 'backlog'): void;
}

/** Shortest time between two log records about refused clients. */
export const refusalLogIntervalMs = 60_000;

/**
 * The live-transport clients of one host: fans engine events out to them, bounds their number and their
 * backlog, and closes them when the host drains (they would otherwise hold the drain open forever).
 */
export class EventClients {
  private readonly clients = new Set<EventClient>();
  private unsubscribe: (() => void) | undefined;
  private sequence = 0;
  private closed = false;
  private refusedTotal = 0;
  private refusedUnlogged = 0;
  private lastRefusalLogAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly engine: Engine,
    private readonly logger: Logger,
    private readonly limits: { readonly maxConnections: number; readonly maxBufferedBytes: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** Clients refused since the host was created (over MaxConnections or while draining). */
  get refusedCount(): number {
    return this.refusedTotal;
  }

  /**
   * Counts one refused client (the caller answers 503). The first refusal is logged at once (warn, event
   * 2016); later ones are counted and logged together, at most once per `refusalLogIntervalMs`, so a flood of
   * clients writes a record per minute, not one per client.
   */
  refuse(transport: EventClient['transport']): void {
    this.refusedTotal += 1;
    this.refusedUnlogged += 1;
    const at = this.now();
    if (at - this.lastRefusalLogAt < refusalLogIntervalMs) return;
    this.lastRefusalLogAt = at;
    const count = this.refusedUnlogged;
    this.refusedUnlogged = 0;
    this.logger.log({
      level: 'warn',
      eventId: webHostEventIds.eventClientDropped,
      category: 'web-host',
      message: this.closed
        ? `${count} event-stream client(s) refused while the host shuts down (latest: ${transport})`
        : `${count} event-stream client(s) refused: Engine:Web:Events:MaxConnections (${this.limits.maxConnections}) reached (latest: ${transport}); the next refusals are logged together in ${refusalLogIntervalMs / 1000}s`,
      refusedCount: count,
      refusedTotal: this.refusedTotal,
    });
  }

  /** False when the bound is reached or the host is draining; the caller answers 503. */
  canAccept(): boolean {
    return !this.closed && this.clients.size < this.limits.maxConnections;
  }

  add(client: EventClient): () => void {
    this.clients.add(client);
    this.unsubscribe ??= this.engine.subscribe((event) => this.broadcast(event));
    return () => this.remove(client);
  }

  get size(): number {
    return this.clients.size;
  }

  /** Refuses new clients and closes every connected one. */
  closeAll(): void {
    this.closed = true;
    for (const client of [...this.clients]) client.close('shutdown');
    this.clients.clear();
    this.stopListening();
  }

  private remove(client: EventClient): void {
    this.clients.delete(client);
    if (this.clients.size === 0) this.stopListening();
  }

  private stopListening(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private broadcast(event: RuntimeEvent): void {
    const id = ++this.sequence;
    for (const client of [...this.clients]) {
      if (client.bufferedBytes() > this.limits.maxBufferedBytes) {
        this.logger.log({
          level: 'warn',
          eventId: webHostEventIds.eventClientDropped,
          category: 'web-host',
          message: `A ${client.transport} client fell more than ${this.limits.maxBufferedBytes} bytes behind (Engine:Web:Events:MaxBufferedBytes) and was disconnected`,
        });
        client.close('backlog');
        this.remove(client);
        continue;
      }
      client.send(event, id);
    }
  }
}
