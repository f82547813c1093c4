import type { IncomingMessage } from 'node:http';
import type {
  AuthorizationDecision,
  AuthorizationResource,
  Logger,
  OperationPrincipal,
} from '@corekit/abstractions';
import { HttpProblem, webHostProblemCodes } from './problem-details';
import { webHostEventIds } from './web-host-event-ids';
import type { AuthorizationRequirement, AuthorizeRequest } from './web-host-options';

/** What the gate decided for one request to an operator surface. */
export type ExposureVerdict =
  | { readonly allowed: true; readonly principal: OperationPrincipal | null }
  | { readonly allowed: false; readonly problem: HttpProblem };

/**
 * The one decision behind every operator surface the web host serves: the `/engine` routes, operations under
 * `/engine` that declare no authorization (the console's page, assets and reads), operations declared
 * `{ mode: 'operator' }` (`/metrics`), the WebSocket upgrade of the event stream and the `/engine` part of the
 * OpenAPI documents. Open (`guarded` false) `admits` everyone. Guarded, it asks the `authorize` hook and refuses
 * the same way everywhere: the hook says `{ outcome: 'unauthenticated' }` → 401 UNAUTHENTICATED with
 * `WWW-Authenticate: Bearer`; `false`, `{ outcome: 'forbidden' }` or a throw (logged) → 403 FORBIDDEN; no hook
 * at all → 403 FORBIDDEN to everyone (nobody can be let in, so no credential would help).
 */
export class EngineExposureGate {
  constructor(
    /** Whether the operator surfaces require the hook (`Engine:Web:EngineRoutes:Exposure`, resolved). */
    readonly guarded: boolean,
    private readonly authorize: AuthorizeRequest | undefined,
    private readonly logger: Logger,
  ) {}

  /**
   * Asks about one request to a guarded surface (whatever `guarded` says: the caller serves a route that
   * requires the hook). `operationId` names the operation asked about (the hook then receives
   * `{ policy: null, operationId }`, and `resource` when the operation declares one); left out for the host's own
   * routes, which ask the hook with the request only.
   */
  async decide(
    request: IncomingMessage,
    operationId?: string,
    resource?: AuthorizationResource | null,
  ): Promise<ExposureVerdict> {
    if (!this.authorize) {
      return {
        allowed: false,
        problem: new HttpProblem(
          403,
          webHostProblemCodes.forbidden,
          'This operator surface is guarded (Engine:Web:EngineRoutes:Exposure) and the host has no authorize hook, so it admits no one',
        ),
      };
    }
    let decision: AuthorizationDecision;
    try {
      const requirement: AuthorizationRequirement | undefined =
        operationId === undefined
          ? undefined
          : { policy: null, operationId, ...(resource ? { resource } : {}) };
      decision = await (requirement ? this.authorize(request, requirement) : this.authorize(request));
    } catch (error) {
      this.logger.log({
        level: 'error',
        eventId: webHostEventIds.authorizationFailed,
        category: 'web-host',
        message: `The authorize hook threw for ${request.method} ${request.url?.split('?')[0]}: ${(error as Error)?.message ?? error}; treated as denied`,
      });
      decision = false;
    }
    if (decision === true) return { allowed: true, principal: { subject: null, policy: null, claims: {} } };
    if (decision && typeof decision === 'object' && decision.outcome === 'allowed') {
      return {
        allowed: true,
        principal: {
          subject: decision.principal?.subject ?? null,
          policy: decision.principal?.policy ?? null,
          claims: decision.principal?.claims ?? {},
        },
      };
    }
    if (decision && typeof decision === 'object' && decision.outcome === 'unauthenticated') {
      return {
        allowed: false,
        problem: new HttpProblem(
          401,
          webHostProblemCodes.unauthenticated,
          decision.reason ?? 'This operator surface needs credentials the host accepts',
          {},
          { 'WWW-Authenticate': 'Bearer' },
        ),
      };
    }
    const reason =
      decision && typeof decision === 'object' && 'reason' in decision ? decision.reason : undefined;
    return {
      allowed: false,
      problem: new HttpProblem(
        403,
        webHostProblemCodes.forbidden,
        reason ??
          'The host denied this request (authorize hook); this operator surface requires authorization',
      ),
    };
  }

  /** True when the request may see the operator surfaces (an open host, or the hook allows it). */
  async admits(request: IncomingMessage): Promise<boolean> {
    return !this.guarded || (await this.decide(request)).allowed;
  }

  /** Null when the request may see the operator surfaces, else the problem to answer (the WebSocket upgrade). */
  async refusal(request: IncomingMessage): Promise<HttpProblem | null> {
    if (!this.guarded) return null;
    const verdict = await this.decide(request);
    return verdict.allowed ? null : verdict.problem;
  }

  /** The principal of an admitted request; throws the refusal's HttpProblem otherwise. */
  async check(
    request: IncomingMessage,
    operationId?: string,
    resource?: AuthorizationResource | null,
  ): Promise<OperationPrincipal | null> {
    const verdict = await this.decide(request, operationId, resource);
    if (!verdict.allowed) throw verdict.problem;
    return verdict.principal;
  }
}
