/**
 * Something that takes work while the engine runs and must let it finish before the engine stops (the web
 * host's HTTP server is one). Participants are drained in registration order once `engine.beginShutdown()`
 * resolved (the packs' stopping hooks have run), and closed in reverse order after `engine.stop()`, also after a
 * failed start that ends the process.
 */
export interface ShutdownParticipant {
  /** Shown in logs. */
  readonly name: string;
  /**
   * Called first, as the shutdown begins (before the packs' stopping hooks run): stop taking new work at once;
   * what is in flight goes on until `drain`.
   */
  refuse?(): void;
  /**
   * Stop taking new work and resolve once in-flight work has finished. `signal` aborts when the drain must end
   * now (a second shutdown signal, or the participant's own deadline): cut what is left and resolve.
   */
  drain(signal: AbortSignal): Promise<void>;
  /** Called after `engine.stop()`: release what is still open. */
  close?(): Promise<void>;
}

/** Reports a participant that failed to drain or close (the host logs it; the shutdown goes on). */
export type ParticipantFailure = (
  participant: ShutdownParticipant,
  step: 'drain' | 'close',
  error: unknown,
) => void;

/**
 * The host's shutdown participants in registration order: each step reaches every participant, and one that
 * throws is reported, never allowed to stop the others.
 */
export class ShutdownParticipants {
  private readonly participants: ShutdownParticipant[] = [];

  constructor(private readonly failed: ParticipantFailure) {}

  /** Registers a participant; returns the function that removes it. */
  add(participant: ShutdownParticipant): () => void {
    this.participants.push(participant);
    return () => {
      const index = this.participants.indexOf(participant);
      if (index >= 0) this.participants.splice(index, 1);
    };
  }

  /** Tells every participant to stop taking new work, in registration order. */
  refuseAll(): void {
    for (const participant of this.participants) participant.refuse?.();
  }

  /** Drains every participant in registration order, one after the other. */
  async drainAll(signal: AbortSignal): Promise<void> {
    for (const participant of [...this.participants]) {
      try {
        await participant.drain(signal);
      } catch (error) {
        this.failed(participant, 'drain', error);
      }
    }
  }

  /** Closes every participant in reverse registration order. */
  async closeAll(): Promise<void> {
    for (const participant of [...this.participants].reverse()) {
      try {
        await participant.close?.();
      } catch (error) {
        this.failed(participant, 'close', error);
      }
    }
  }
}
