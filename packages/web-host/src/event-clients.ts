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

/**
 * The live-transport clients of one host: fans engine events out to them, bounds their number and their
 * backlog, and closes them when the host drains (they would otherwise hold the drain open forever).
 */
export class EventClients {
  private readonly clients = new Set<EventClient>();
  private unsubscribe: (() => void) | undefined;
  private sequence = 0;
  private closed = false;

  constructor(
    private readonly engine: Engine,
    private readonly logger: Logger,
    private readonly limits: { readonly maxConnections: number; readonly maxBufferedBytes: number },
  ) {}

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
