import { defineOperation, OperationError, type EngineBuilder } from '@corekit/abstractions';
import { cdcCaptureSchema } from '@corekit/abstractions';
import { z } from 'zod';
import { dataEventIds } from './data-event-ids';
import {
  cdcCaptureRuntimeObservationSchema,
  cdcExecutionRuntimeSchema,
  type CdcCaptureRuntimeObservation,
} from './data-model';
import type { DataRuntime } from './data-runtime';

/** Stable error codes of the data pack's operations. */
export const dataErrorCodes = {
  runtimeNotFound: 'CDC_RUNTIME_NOT_FOUND',
  captureNotFound: 'CDC_CAPTURE_NOT_FOUND',
  captureNotOwned: 'CDC_CAPTURE_NOT_OWNED',
  reporterNotDeclared: 'CDC_REPORTER_NOT_DECLARED',
  edgeNodeNotDeclared: 'CDC_EDGE_NODE_NOT_DECLARED',
  reporterRejected: 'CDC_REPORTER_REJECTED',
  reportTooLarge: 'CDC_REPORT_TOO_MANY_OBSERVATIONS',
} as const;

const runtimeParams = z.strictObject({ executionRuntimeId: z.string().min(1).max(200) });

/** Checks ownership, reporter and edge-node policy of every observation; throws with every problem found. */
function checkPolicy(
  runtime: DataRuntime,
  runtimeId: string,
  observations: readonly CdcCaptureRuntimeObservation[],
) {
  const declaration = runtime.runtime(runtimeId)!;
  const missing = observations.filter((observation) => !runtime.capture(observation.cdcCaptureId));
  if (missing.length > 0) {
    throw new OperationError(
      'not-found',
      dataErrorCodes.captureNotFound,
      `Unknown capture id(s): ${[...new Set(missing.map((item) => item.cdcCaptureId))].join(', ')}; GET /engine/cdc-captures lists them`,
    );
  }
  const problems: Array<{ index: number; code: string; reason: string }> = [];
  observations.forEach((observation, index) => {
    const effective = runtime.bindingOf(observation.cdcCaptureId).effectiveExecutionRuntimeId;
    if (effective !== runtimeId) {
      problems.push({
        index,
        code: dataErrorCodes.captureNotOwned,
        reason: `capture "${observation.cdcCaptureId}" is effectively owned by ${effective === null ? 'no runtime' : `runtime "${effective}"`}, not "${runtimeId}"`,
      });
    }
    if (declaration.reporterIds && !declaration.reporterIds.includes(observation.reporterId)) {
      problems.push({
        index,
        code: dataErrorCodes.reporterNotDeclared,
        reason: `reporter "${observation.reporterId}" is not one of the runtime's ReporterIds`,
      });
    }
    if (declaration.edgeNodeIds.length > 0) {
      if (!observation.edgeNodeId || !declaration.edgeNodeIds.includes(observation.edgeNodeId)) {
        problems.push({
          index,
          code: dataErrorCodes.edgeNodeNotDeclared,
          reason: observation.edgeNodeId
            ? `edge node "${observation.edgeNodeId}" is not declared by runtime "${runtimeId}"`
            : `runtime "${runtimeId}" is an edge runtime: every observation must name a declared edgeNodeId`,
        });
      }
    }
  });
  if (problems.length > 0) {
    throw new OperationError(
      'conflict',
      problems[0].code,
      `The report was refused: ${problems.map((problem) => `[${problem.index}] ${problem.reason}`).join('; ')}`,
      { problems },
    );
  }
}

/**
 * The pack's operations: the capture list narrowed by effective runtime (an operation, since the binding is
 * the pack's), and, when enabled, the external report route.
 */
export function registerDataOperations(
  builder: EngineBuilder,
  runtime: DataRuntime,
  settings: {
    readonly EnableExternalCdcRuntimeReporting: boolean;
    readonly MaxObservationsPerReport: number;
  },
): void {
  builder.addOperation(
    defineOperation({
      id: 'data.cdc-captures-by-runtime',
      method: 'GET',
      path: '/engine/cdc-captures/execution-runtimes/:executionRuntimeId',
      summary: 'Every CDC capture effectively owned by one execution runtime',
      tags: ['CDC captures'],
      params: runtimeParams,
      result: z.array(cdcCaptureSchema),
      errors: { 'not-found': `no runtime has this id (${dataErrorCodes.runtimeNotFound})` },
      owner: '@corekit/data',
      handler: ({ params }) => {
        if (!runtime.runtime(params.executionRuntimeId)) {
          throw new OperationError(
            'not-found',
            dataErrorCodes.runtimeNotFound,
            `No CDC execution runtime "${params.executionRuntimeId}"; GET /engine/cdc-capture-runtimes lists them`,
          );
        }
        return runtime.ownedBy(params.executionRuntimeId).map((capture) => runtime.boundCapture(capture));
      },
    }),
  );
  if (!settings.EnableExternalCdcRuntimeReporting) return;
  builder.addOperation(
    defineOperation({
      id: 'data.report-cdc-runtime',
      method: 'POST',
      path: '/engine/cdc-capture-runtimes/:executionRuntimeId/reports',
      summary: 'Report CDC capture observations for one execution runtime',
      description:
        'Body: an array of CdcCaptureRuntimeObservation. Refreshes the shared runtime-state catalog; answers the refreshed runtime descriptor. Applied whole or not at all.',
      tags: ['CDC execution runtimes'],
      params: runtimeParams,
      body: z.array(cdcCaptureRuntimeObservationSchema).min(1).max(settings.MaxObservationsPerReport),
      result: cdcExecutionRuntimeSchema,
      authorization: { mode: 'required' },
      errors: {
        'invalid-input': 'the body is not a non-empty array of valid observations (every issue is listed)',
        'not-found': `unknown runtime (${dataErrorCodes.runtimeNotFound}) or capture (${dataErrorCodes.captureNotFound})`,
        conflict: `a capture owned by another runtime (${dataErrorCodes.captureNotOwned}), an undeclared reporter or edge node, or a reporter rejected by lease coordination (${dataErrorCodes.reporterRejected})`,
      },
      owner: '@corekit/data',
      handler: async ({ params, body }) => {
        const runtimeId = params.executionRuntimeId;
        const declaration = runtime.runtime(runtimeId);
        if (!declaration) {
          throw new OperationError(
            'not-found',
            dataErrorCodes.runtimeNotFound,
            `No CDC execution runtime "${runtimeId}"; GET /engine/cdc-capture-runtimes lists them`,
          );
        }
        try {
          checkPolicy(runtime, runtimeId, body);
        } catch (error) {
          builder.logger.log({
            level: 'warn',
            eventId: dataEventIds.reportOwnershipRefused,
            category: 'data',
            message: `A report for CDC runtime ${runtimeId} was refused: ${(error as Error).message.slice(0, 300)}`,
          });
          throw error;
        }
        const outcome = await runtime.book.applyReport(body, declaration);
        if (!outcome.applied) {
          builder.logger.log({
            level: 'warn',
            eventId: dataEventIds.reportRejected,
            category: 'data',
            message: `A report for CDC runtime ${runtimeId} came from a rejected reporter (${outcome.rejections.length} capture(s))`,
          });
          throw new OperationError(
            'conflict',
            dataErrorCodes.reporterRejected,
            `The reporter was rejected by lease coordination: ${outcome.rejections.map((item) => `${item.cdcCaptureId}: ${item.reason}`).join('; ')}`,
            { rejections: outcome.rejections },
          );
        }
        for (const takeover of outcome.takeovers) {
          builder.logger.log({
            level: 'warn',
            eventId: dataEventIds.reporterTakeover,
            category: 'data',
            message: `CDC capture ${takeover.cdcCaptureId}: a new reporter took over after the lease of ${takeover.previousReporterId} expired`,
          });
          builder.story.record({
            kind: 'data.cdc-reporter',
            subjectId: takeover.cdcCaptureId,
            transition: 'takeover',
            message: `Reporter takeover on CDC capture ${takeover.cdcCaptureId} (runtime ${runtimeId})`,
          });
        }
        builder.logger.log({
          level: 'info',
          eventId: dataEventIds.reportAccepted,
          category: 'data',
          message: `CDC runtime ${runtimeId} reported ${body.length} observation(s)`,
        });
        builder.events.publish({
          type: 'data.cdc-report-accepted',
          subjectId: runtimeId,
          data: { observationCount: body.length },
        });
        return runtime.descriptor(runtimeId)!;
      },
    }),
  );
}
