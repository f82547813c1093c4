import type { Logger, LogLevel } from '../logging';
import type { RuntimeEventPublisher, RuntimeStoryWriter } from './runtime-writers';

/** A pack's log and story writers, bound to its log category and story kind. */
export interface PackDiagnostics {
  /** One structured log record of the pack's category; `fields` must hold no secret or personal data. */
  log(level: LogLevel, eventId: number, message: string, fields?: Record<string, unknown>): void;
  /** One runtime story entry of the pack's kind (`subjectId` null for the pack as a whole). */
  story(
    subjectId: string | null,
    transition: string,
    message: string,
    details?: Record<string, unknown>,
  ): void;
  /**
   * A transition of something the pack runs (`agents.tool-run`, `retrieval.indexing`): published as a
   * runtime event of that type (`data` is the facts and the transition) and, unless `story` is false,
   * recorded in the story under that kind with the facts as details.
   */
  transition(
    kind: string,
    subjectId: string,
    transition: string,
    message: string,
    facts: Record<string, unknown>,
    story?: boolean,
  ): void;
}

/**
 * Binds a pack's log category and story kind (the kind defaults to the category) once, so its telemetry
 * writes `log(level, eventId, message, fields)` and `story(subjectId, transition, message, details)`.
 */
export function packDiagnostics(
  builder: {
    readonly logger: Logger;
    readonly story: RuntimeStoryWriter;
    readonly events: RuntimeEventPublisher;
  },
  category: string,
  storyKind: string = category,
): PackDiagnostics {
  return {
    log: (level, eventId, message, fields = {}) =>
      builder.logger.log({ level, eventId, category, message, ...fields }),
    story: (subjectId, transition, message, details = {}) =>
      builder.story.record({ kind: storyKind, subjectId, transition, message, details }),
    transition: (kind, subjectId, transition, message, facts, story = true) => {
      builder.events.publish({ type: kind, subjectId, data: { ...facts, transition } });
      if (story) builder.story.record({ kind, subjectId, transition, message, details: facts });
    },
  };
}
