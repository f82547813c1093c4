import type { EngineBuilder } from '@corekit/abstractions';
import type { PumpObserver } from './capture-pump';
import { dataEventIds } from './data-event-ids';

/** Event id of a failed step, by failure kind. */
function failureEventId(failureKind: string): number {
  switch (failureKind) {
    case 'acknowledgement':
      return dataEventIds.acknowledgementFailed;
    case 'source':
      return dataEventIds.sourceUnavailable;
    case 'provider':
      return dataEventIds.providerUnavailable;
    case 'prerequisite':
      return dataEventIds.prerequisiteMissing;
    default:
      return dataEventIds.captureFailed;
  }
}

/**
 * What a pump tells the operator: a log line per failed step (the pump backs off, so a failing capture logs
 * a bounded number of them), and for a gap, a restart and a retention bound crossed a log line, a story entry
 * and a runtime event (`data.cdc-capture-gap`, `data.cdc-capture-restarted`, `data.cdc-capture-retention`).
 */
export function pumpObserver(builder: EngineBuilder, executionRuntimeId: string): PumpObserver {
  const log = (level: 'info' | 'warn' | 'error', eventId: number, message: string) =>
    builder.logger.log({ level, eventId, category: 'data', message: message.slice(0, 500) });
  return {
    stepFailed: (capture, step, failureKind, message) =>
      log(
        'warn',
        failureEventId(failureKind),
        `CDC capture ${capture.id} failed at ${step} (${failureKind}): ${message}`,
      ),
    gapDetected: (capture, gap) => {
      const message = `CDC capture ${capture.id} cannot resume from ${gap.checkpoint ?? 'its start'} (${gap.reasonCode}): ${gap.reason}. It is stopped and not guaranteed; accept the gap or re-snapshot (POST /engine/cdc-captures/runtime/${capture.id}/gap/accept or /re-snapshot).`;
      log('error', dataEventIds.gapDetected, message);
      builder.story.record({
        kind: 'data.cdc-capture',
        subjectId: capture.id,
        transition: 'gap',
        message: message.slice(0, 300),
        details: { executionRuntimeId, reasonCode: gap.reasonCode, checkpoint: gap.checkpoint },
      });
      builder.events.publish({
        type: 'data.cdc-capture-gap',
        subjectId: capture.id,
        data: {
          reasonCode: gap.reasonCode,
          checkpoint: gap.checkpoint,
          detectedAtUtc: gap.detectedAtUtc,
          executionRuntimeId,
        },
      });
    },
    restarted: (capture, action, closedGap) => {
      const message = `CDC capture ${capture.id} started over (${action})${closedGap ? `, closing gap ${closedGap.reasonCode}` : ''}`;
      log('warn', dataEventIds.restartPerformed, message);
      builder.story.record({
        kind: 'data.cdc-capture',
        subjectId: capture.id,
        transition: `restarted:${action}`,
        message,
        details: { executionRuntimeId, closedGap: closedGap?.reasonCode ?? null },
      });
      builder.events.publish({
        type: 'data.cdc-capture-restarted',
        subjectId: capture.id,
        data: { action, closedGap: closedGap?.reasonCode ?? null, executionRuntimeId },
      });
    },
    retentionCrossed: (capture, bytes, above) => {
      log(
        above ? 'warn' : 'info',
        above ? dataEventIds.retentionAboveBound : dataEventIds.retentionBackUnderBound,
        `CDC capture ${capture.id}: the source holds back ${bytes} bytes for it, ${above ? 'above' : 'back under'} Engine:Data:RetentionAttentionBytes`,
      );
      builder.events.publish({
        type: 'data.cdc-capture-retention',
        subjectId: capture.id,
        data: { retainedBytes: bytes, aboveBound: above, executionRuntimeId },
      });
    },
    leaseLost: (capture, reason) => {
      log(
        'warn',
        dataEventIds.reporterTakeover,
        `CDC capture ${capture.id}: this pump's reporter lease was ${reason === 'taken-over' ? 'taken over by another reporter' : 'lost (it ran out while it could not be renewed)'} while a batch ran; nothing of the batch is acknowledged or reported, the holder resumes from the durable checkpoint`,
      );
    },
  };
}
