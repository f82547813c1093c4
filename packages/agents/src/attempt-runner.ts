import type { AgentToolExecutionContext, AgentToolExecutor } from './tool-definitions';
import type { ErrorSummary } from './run-model';
import { summarizeError } from './summaries';

/** The answer of one attempt. */
export type AttemptOutcome =
  | { readonly ok: true; readonly output: unknown }
  | {
      readonly ok: false;
      readonly error: ErrorSummary;
      readonly retryable: boolean;
      readonly timedOut: boolean;
    };

export const attemptErrorCodes = {
  timeout: 'AGENT_TOOL_TIMEOUT',
  aborted: 'AGENT_TOOL_ABORTED',
  failed: 'AGENT_TOOL_EXECUTOR_FAILED',
  outputTooLarge: 'AGENT_TOOL_OUTPUT_TOO_LARGE',
  outputInvalid: 'AGENT_TOOL_OUTPUT_INVALID',
} as const;

export interface AttemptSettings {
  readonly timeoutMs: number;
  readonly maxOutputLength: number;
  readonly summaryMaxLength: number;
}

/**
 * Runs one attempt. The executor gets a signal aborted at the timeout or when `outer` aborts, and the attempt
 * answers at that moment whether or not the executor honours the signal: a run never outlives its timeout
 * (an executor that ignores the signal keeps running in the background, its late answer discarded).
 */
export async function runAttempt(
  executor: AgentToolExecutor,
  args: unknown,
  context: Omit<AgentToolExecutionContext, 'signal' | 'timeoutMs'>,
  settings: AttemptSettings,
  outer: AbortSignal,
): Promise<AttemptOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  let stop: (() => void) | undefined;
  const stopped = new Promise<'stopped'>((resolve) => {
    stop = () => resolve('stopped');
  });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${settings.timeoutMs} ms`));
    stop?.();
  }, settings.timeoutMs);
  const onOuterAbort = () => {
    controller.abort(outer.reason);
    stop?.();
  };
  if (outer.aborted) onOuterAbort();
  else outer.addEventListener('abort', onOuterAbort, { once: true });
  try {
    const running = Promise.resolve().then(() =>
      executor.execute(args, { ...context, signal: controller.signal, timeoutMs: settings.timeoutMs }),
    );
    running.catch(() => undefined);
    const answer = await Promise.race([running.then((output) => ({ output })), stopped]);
    if (answer === 'stopped') {
      return timedOut
        ? failure(attemptErrorCodes.timeout, `attempt timed out after ${settings.timeoutMs} ms`, true, true)
        : failure(
            attemptErrorCodes.aborted,
            'the run was aborted (caller gone or engine stopping)',
            false,
            false,
          );
    }
    return checkOutput(answer.output, settings);
  } catch (error) {
    if (timedOut)
      return failure(
        attemptErrorCodes.timeout,
        `attempt timed out after ${settings.timeoutMs} ms`,
        true,
        true,
      );
    const retryable = !(
      error &&
      typeof error === 'object' &&
      (error as { retryable?: unknown }).retryable === false
    );
    return {
      ok: false,
      error: summarizeError(error, attemptErrorCodes.failed, settings.summaryMaxLength),
      retryable: retryable && !outer.aborted,
      timedOut: false,
    };
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onOuterAbort);
  }
}

function failure(code: string, message: string, retryable: boolean, timedOut: boolean): AttemptOutcome {
  return { ok: false, error: { code, message }, retryable, timedOut };
}

function checkOutput(output: unknown, settings: AttemptSettings): AttemptOutcome {
  if (output === undefined) return { ok: true, output: null };
  let text: string | undefined;
  try {
    text = JSON.stringify(output);
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    return failure(
      attemptErrorCodes.outputInvalid,
      'the executor answered a value that is not JSON',
      false,
      false,
    );
  }
  if (text.length > settings.maxOutputLength) {
    return failure(
      attemptErrorCodes.outputTooLarge,
      `the executor answered ${text.length} characters of JSON, more than MaxOutputLength ${settings.maxOutputLength}`,
      false,
      false,
    );
  }
  return { ok: true, output: JSON.parse(text) as unknown };
}

/** Waits `ms`, or less when `signal` aborts (answers false then). */
export function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
