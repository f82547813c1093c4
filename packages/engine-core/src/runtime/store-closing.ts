import { engineEventIds, type Logger } from '@corekit/abstractions';
import type { RuntimeStory } from '../runtime-story';
import { settlesWithin } from './settles-within';

/**
 * Closes the store provider within `budgetMs` (`Engine:Shutdown:StoreCloseTimeout`). A provider that fails or
 * does not settle in time is recorded in the story and logged (its message redacted); the stop goes on.
 */
export async function closeStoreProvider(
  close: () => Promise<void>,
  budgetMs: number,
  story: Pick<RuntimeStory, 'record'>,
  logger: Logger & { redact(value: string): string },
): Promise<void> {
  let failure: unknown;
  const closing = close().catch((error: unknown) => (failure = error));
  const settled = await settlesWithin(closing, budgetMs);
  const problem = !settled
    ? `did not close within Engine:Shutdown:StoreCloseTimeout (${budgetMs} ms); the stop goes on`
    : failure !== undefined
      ? `failed to close: ${logger.redact(String((failure as Error)?.message ?? failure))}`
      : undefined;
  if (!problem) return;
  story.record({
    kind: 'stores',
    subjectId: null,
    transition: 'stop-failed',
    message: `The store provider ${problem}`,
  });
  logger.log({
    level: 'error',
    eventId: engineEventIds.runtimeStopped,
    category: 'engine',
    message: `The store provider ${problem}`,
  });
}
