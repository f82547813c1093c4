import {
  CoreError,
  type PackRuntimeEventInput,
  type RuntimeEvent,
  type RuntimeEventPublisher,
} from '@corekit/abstractions';
import { isoAt, type Clock } from '../clock';

const eventNamePattern = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/;

/** The engine's runtime-event listeners: engine events and pack events reach SSE and WebSocket clients alike. */
export class RuntimeEventHub implements RuntimeEventPublisher {
  private readonly listeners = new Set<(event: RuntimeEvent) => void>();

  constructor(private readonly clock: Clock) {}

  get listenerCount(): number {
    return this.listeners.size;
  }

  subscribe(listener: (event: RuntimeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  emit(event: RuntimeEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener must not break the runtime; transports remove their own listeners on close.
      }
    }
  }

  /** A pack's event, `<pack>.<what>` (`eventing.publication-accepted`). */
  publish(event: PackRuntimeEventInput): void {
    if (!eventNamePattern.test(event.type)) {
      throw new CoreError(
        'RUNTIME_EVENT_INVALID',
        `Runtime event type "${event.type}" must be "<pack>.<what>" in lower case (eventing.publication-accepted)`,
      );
    }
    if (this.listeners.size === 0) return;
    this.emit({
      type: 'pack-event',
      name: event.type,
      subjectId: event.subjectId ?? null,
      data: event.data ?? {},
      atUtc: isoAt(this.clock.now()),
    });
  }
}
