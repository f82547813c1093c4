import { CoreError, type HealthReport, type HealthSummary, type Logger } from '@corekit/abstractions';
import type { IncomingMessage } from 'node:http';
import { webHostEventIds } from './web-host-event-ids';
import type { AuthorizeRequest, ShowDetails, WebHostConfiguration } from './web-host-options';

/** Runs the `authorize` hook; a missing hook or a throw counts as denied (the throw is logged). */
export async function isAuthorized(
  request: IncomingMessage,
  authorize: AuthorizeRequest | undefined,
  logger: Logger,
): Promise<boolean> {
  if (!authorize) return false;
  try {
    const decision = await authorize(request);
    return decision === true || (typeof decision === 'object' && decision?.outcome === 'allowed');
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

const exposureKey = 'Engine:Web:EngineRoutes:Exposure';
const legacyKey = 'Engine:Web:EngineRoutes:RequireAuthorization';

/**
 * Decides once, at host creation, whether the `/engine` routes (and event streams) require the `authorize`
 * hook: the explicit `Exposure` (or the older `RequireAuthorization`) when set, else guarded exactly when
 * `NODE_ENV` is `production`. Guarded by that default with no hook, every `/engine` request answers 403 and
 * one warning is logged now; set explicitly with no hook, or with the two keys disagreeing, it throws
 * CONFIGURATION_INVALID. It reads `NODE_ENV` from `environment` only, not from the engine's environment name.
 */
export function engineRoutesGuarded(
  settings: WebHostConfiguration['EngineRoutes'],
  environment: Readonly<Record<string, string | undefined>>,
  authorize: AuthorizeRequest | undefined,
  logger: Logger,
): boolean {
  const legacy =
    settings.RequireAuthorization === undefined
      ? undefined
      : settings.RequireAuthorization
        ? 'RequireAuthorization'
        : 'Open';
  const exposure = settings.Exposure === 'Auto' ? undefined : settings.Exposure;
  if (exposure && legacy && exposure !== legacy) {
    throw new CoreError(
      'CONFIGURATION_INVALID',
      `Invalid configuration: ${exposureKey} and ${legacyKey} disagree`,
      {
        problems: [
          `${exposureKey} is ${JSON.stringify(exposure)} but ${legacyKey} is ${settings.RequireAuthorization}; remove ${legacyKey} (the older spelling)`,
        ],
      },
    );
  }
  const explicit = exposure ?? legacy;
  if (explicit === 'RequireAuthorization' && !authorize) {
    const key = exposure ? `${exposureKey} is RequireAuthorization` : `${legacyKey} is true`;
    throw new CoreError(
      'CONFIGURATION_INVALID',
      `Invalid configuration: ${key} but createWebHost got no authorize hook`,
      {
        problems: [
          `${key}: pass authorize: (request) => boolean to createWebHost, or set ${exposureKey} to Open`,
        ],
      },
    );
  }
  if (explicit) return explicit === 'RequireAuthorization';
  const production = environment.NODE_ENV === 'production';
  if (production && !authorize) {
    logger.log({
      level: 'warn',
      eventId: webHostEventIds.engineRoutesOpenInProduction,
      category: 'web-host',
      message:
        `NODE_ENV=production: the /engine routes require authorization and createWebHost got no authorize hook, so they answer 403 to everyone. ` +
        `Pass authorize: (request) => boolean to createWebHost to let operators in, or set ${exposureKey} to Open (Engine__Web__EngineRoutes__Exposure=Open) to serve them to anyone who reaches the port.`,
    });
  }
  return production;
}
