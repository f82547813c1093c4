import type { EventMessage } from '@corekit/eventing';

/** How `confirmBatch` sends one message and learns its fate. */
export interface ConfirmBatchOptions {
  /**
   * Hands one message to the client; the client calls `confirmed` once the broker acknowledged it (null) or
   * refused it (an error). Throwing means the connection is gone: this message and every later one fail.
   */
  readonly send: (message: EventMessage, confirmed: (error: Error | null) => void) => void;
  /** Longest wait for the whole batch's confirms, in milliseconds. */
  readonly timeoutMs: number;
  /** What the broker's acknowledgement is called in the timeout error, e.g. `broker confirm`, `PUBACK`. */
  readonly acknowledgement: string;
  /** Called once when the timeout fails unconfirmed messages (to drop a connection that stopped answering). */
  readonly onTimeout?: () => void;
  /** Called once when `send` threw, with the error. */
  readonly onSendFailure?: (error: Error) => void;
}

/**
 * Sends a batch on a client that confirms each message by callback, with one timer for the whole batch (not
 * a promise and a timer per message). Answers, in order, null for each message the broker acknowledged and
 * an error for each it refused, did not acknowledge in time, or that could not be sent.
 */
export function confirmBatch(
  messages: readonly EventMessage[],
  options: ConfirmBatchOptions,
): Promise<(Error | null)[]> {
  if (messages.length === 0) return Promise.resolve([]);
  const outcomes: (Error | null | undefined)[] = messages.map(() => undefined);
  return new Promise((resolve) => {
    let pending = messages.length;
    const settle = (index: number, error: Error | null) => {
      if (outcomes[index] !== undefined) return;
      outcomes[index] = error;
      pending -= 1;
      if (pending > 0) return;
      clearTimeout(timer);
      resolve(outcomes.map((outcome) => outcome ?? null));
    };
    const timer = setTimeout(() => {
      const error = new Error(`no ${options.acknowledgement} within ${options.timeoutMs} ms`);
      options.onTimeout?.();
      outcomes.forEach((outcome, index) => outcome === undefined && settle(index, error));
    }, options.timeoutMs);
    timer.unref?.();
    for (let index = 0; index < messages.length; index += 1) {
      try {
        options.send(messages[index]!, (error) => settle(index, error));
      } catch (caught) {
        const error = caught instanceof Error ? caught : new Error(String(caught));
        options.onSendFailure?.(error);
        for (let rest = index; rest < messages.length; rest += 1) settle(rest, error);
        break;
      }
    }
  });
}
