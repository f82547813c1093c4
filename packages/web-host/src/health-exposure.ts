import { type HealthReport, type HealthSummary, type Logger } from '@corekit/abstractions';
import type { IncomingMessage } from 'node:http';
import { webHostEventIds } from './web-host-event-ids';
import type { AuthorizeRequest, ShowDetails } from './web-host-options';

/** Runs the `authorize` hook; a missing hook or a throw counts as denied (the throw is logged). */
export async function isAuthorized(
  request: IncomingMessage,
  authorize: AuthorizeRequest | undefined,
  logger: Logger,
): Promise<boolean> {
  if (!authorize) return false;
  try {
    return (await authorize(request)) === true;
  } catch (error) {
    logger.log({
      level: 'error',
      eventId: webHostEventIds.authorizationFailed,
      category: 'web-host',
      message: `The authorize hook threw for ${request.method} ${request.url?.split('?')[0]}: ${(error as Error)?.message ?? error}; treated as denied`,
    });
    return false;
  }
}

/** Decides per request whether a health answer carries its details. */
export function createDetailsPolicy(
  mode: ShowDetails,
  authorize: AuthorizeRequest | undefined,
  logger: Logger,
): (request: IncomingMessage) => boolean | Promise<boolean> {
  if (mode === 'Always') return () => true;
  if (mode === 'Never') return () => false;
  return (request) => isAuthorized(request, authorize, logger);
}

/** A health report reduced to what every caller may see: the status and when and how fast it was computed. */
export function summarize(report: HealthReport): HealthSummary {
  return {
    status: report.status,
    duration: report.duration,
    durationMs: report.durationMs,
    checkedAtUtc: report.checkedAtUtc,
  };
}

/** Healthy and Degraded answer 200, Unhealthy 503 (spec 3.1). */
export function healthStatusCode(report: { status: HealthReport['status'] }): number {
  return report.status === 'Unhealthy' ? 503 : 200;
}
