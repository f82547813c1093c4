import type { Logger } from '@corekit/abstractions';
import { dispatcherEventIds } from './dispatcher-event-ids';

/** How a dispatcher opens, names and closes its broker connection. */
export interface LazyConnectionOptions<T> {
  /** Opens the connection (client, channel, producer...). */
  readonly connect: () => Promise<T>;
  /** Closes a connection that is forgotten or closed; errors are ignored. */
  readonly dispose: (connection: T) => Promise<unknown> | unknown;
  readonly logger: Logger;
  /** Log category, e.g. `eventing.rabbitmq`. */
  readonly category: string;
  /** What the broker is called in messages, e.g. `RabbitMQ`. */
  readonly broker: string;
}

/**
 * A broker connection opened on first use and shared by every dispatch until it is lost. Startup never
 * waits on the broker; a failed connect is logged (3237) and rejects that dispatch (the outbox schedules the
 * retry), and the next dispatch connects again. `lost` forgets a connection the client reported closed (3239).
 */
export class LazyConnection<T> {
  private connecting: Promise<T> | null = null;
  private current: T | null = null;
  /** Moves on every `close`: a connection opened by an earlier generation is not kept. */
  private generation = 0;

  constructor(private readonly options: LazyConnectionOptions<T>) {}

  /** The open connection, connecting first when there is none. */
  get(): Promise<T> {
    this.connecting ??= this.open();
    return this.connecting;
  }

  /** Forgets `connection` when it is the current one and closes it; true when it was (false when already gone). */
  forget(connection: T): boolean {
    if (this.current !== connection) return false;
    this.current = null;
    this.connecting = null;
    void this.dispose(connection);
    return true;
  }

  /** Forgets a connection the client reported closed, logging it once (3239). */
  lost(connection: T): void {
    if (!this.forget(connection)) return;
    this.options.logger.log({
      level: 'warn',
      eventId: dispatcherEventIds.closed,
      category: this.options.category,
      message: `The ${this.options.broker} connection closed; the next dispatch reconnects`,
    });
  }

  /**
   * Closes the connection (the engine stops). A later dispatch (the engine started again, `engine.restart()`)
   * opens a new one; a connect still running when `close` was called is closed, never kept.
   */
  async close(): Promise<void> {
    this.generation += 1;
    const pending = this.connecting;
    this.connecting = null;
    this.current = null;
    const connection = await pending?.catch(() => null);
    if (connection) await this.dispose(connection);
  }

  private async open(): Promise<T> {
    const generation = this.generation;
    let connection: T;
    try {
      connection = await this.options.connect();
    } catch (error) {
      if (generation === this.generation) this.connecting = null;
      const reason = error instanceof Error ? error.message : String(error);
      this.options.logger.log({
        level: 'warn',
        eventId: dispatcherEventIds.connectionFailed,
        category: this.options.category,
        message: `Cannot reach ${this.options.broker}; the dispatch is retried`,
        error: reason.slice(0, 200),
      });
      throw new Error(`${this.options.broker} unreachable: ${reason}`);
    }
    if (generation !== this.generation) {
      // Closed while connecting: the connection is closed here, never kept.
      await this.dispose(connection);
      throw new Error(`the ${this.options.broker} dispatcher closed while connecting`);
    }
    this.current = connection;
    this.options.logger.log({
      level: 'info',
      eventId: dispatcherEventIds.connected,
      category: this.options.category,
      message: `Connected to ${this.options.broker}`,
    });
    return connection;
  }

  private async dispose(connection: T): Promise<void> {
    try {
      await this.options.dispose(connection);
    } catch {
      // Closing a connection that already failed: nothing left to do.
    }
  }
}
