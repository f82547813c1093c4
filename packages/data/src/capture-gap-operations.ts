import {
  defineOperation,
  OperationError,
  type EngineBuilder,
  type OperationContext,
} from '@corekit/abstractions';
import { z } from 'zod';
import { requestRestart } from './capture-gaps';
import { dataEventIds } from './data-event-ids';
import { cdcCaptureRuntimeStateSchema, type RestartRequest } from './data-model';
import type { DataRuntime } from './data-runtime';
import type { CaptureRestart } from './polling-provider';

/** Stable error codes of the gap operations. */
export const captureGapErrorCodes = {
  captureNotFound: 'CDC_CAPTURE_NOT_FOUND',
  noOpenGap: 'CDC_NO_OPEN_GAP',
  restartUnsupported: 'CDC_RESTART_UNSUPPORTED',
} as const;

const params = z.strictObject({ cdcCaptureId: z.string().min(1).max(200) });
/** Optional note stored with the decision (why, a ticket): never put secrets here. */
const body = z.strictObject({ note: z.string().max(500).optional() }).optional();

/**
 * Who decided: the caller's subject; `authorized` when the authorizer allowed a caller without naming one;
 * `in-process` for a trusted in-process caller; else `anonymous`.
 */
function requesterOf(context: OperationContext): string {
  if (context.principal?.subject) return context.principal.subject.slice(0, 200);
  if (context.principal) return 'authorized';
  return context.transport === 'in-process' ? 'in-process' : 'anonymous';
}

/**
 * The operator's choices for a capture with a gap (`/engine`, authorization `required` like every mutation):
 * accept the gap (start again from the source's current position; the changes in between stay lost, and
 * who accepted it and when is kept on the state) or re-snapshot (start again reading the rows the source
 * holds now, then stream). Both are stored through the store contract and performed by the next pass of the
 * owning pump; `restartsOf` says which restarts the capture's provider can perform.
 */
export function registerCaptureGapOperations(
  builder: EngineBuilder,
  runtime: DataRuntime,
  restartsOf: (provider: string) => readonly CaptureRestart[] | null,
): void {
  const register = (action: CaptureRestart, path: string, summary: string, description: string) =>
    builder.addOperation(
      defineOperation({
        id: `data.cdc-capture-${action}`,
        method: 'POST',
        path: `/engine/cdc-captures/runtime/:cdcCaptureId/gap/${path}`,
        summary,
        description,
        tags: ['CDC captures'],
        params,
        body,
        result: cdcCaptureRuntimeStateSchema,
        authorization: { mode: 'required' },
        errors: {
          'not-found': `unknown capture (${captureGapErrorCodes.captureNotFound})`,
          conflict: `no open gap to accept (${captureGapErrorCodes.noOpenGap}) or a provider that cannot ${action} (${captureGapErrorCodes.restartUnsupported})`,
        },
        owner: '@corekit/data',
        handler: async (input, context) => {
          const id = input.params.cdcCaptureId;
          const capture = runtime.capture(id);
          if (!capture) {
            throw new OperationError(
              'not-found',
              captureGapErrorCodes.captureNotFound,
              `No CDC capture "${id}"; GET /engine/cdc-captures lists them`,
            );
          }
          const supported = restartsOf(capture.provider) ?? ['accept-gap'];
          if (!supported.includes(action)) {
            throw new OperationError(
              'conflict',
              captureGapErrorCodes.restartUnsupported,
              `Provider "${capture.provider}" cannot ${action} (it supports: ${supported.join(', ')})`,
            );
          }
          const request: RestartRequest = {
            action,
            requestedBy: requesterOf(context),
            requestedAtUtc: new Date().toISOString(),
            note: input.body?.note ?? null,
          };
          let refused = false;
          await runtime.book.update(id, (record) => {
            refused = action === 'accept-gap' && !record.gap;
            return refused ? record : requestRestart(record, request);
          });
          if (refused) {
            throw new OperationError(
              'conflict',
              captureGapErrorCodes.noOpenGap,
              `CDC capture "${id}" has no open gap to accept`,
            );
          }
          builder.logger.log({
            level: 'warn',
            eventId: dataEventIds.restartRequested,
            category: 'data',
            message: `CDC capture ${id}: ${action} requested; the next pass of its pump performs it`,
          });
          builder.events.publish({
            type: 'data.cdc-capture-restart-requested',
            subjectId: id,
            data: { action, requestedAtUtc: request.requestedAtUtc },
          });
          return runtime.states().find((state) => state.cdcCaptureId === id)!;
        },
      }),
    );
  register(
    'accept-gap',
    'accept',
    'Accept the gap of a CDC capture and start again from the source’s current position',
    'Changes committed between the gap’s checkpoint and now stay lost. Who accepted and when is kept in lastResolvedGap.',
  );
  register(
    're-snapshot',
    're-snapshot',
    'Read a CDC capture’s source again (snapshot), then stream',
    'Allowed with or without an open gap. The provider drops its position, reads the rows the source holds now and streams from the consistent point after them.',
  );
}
