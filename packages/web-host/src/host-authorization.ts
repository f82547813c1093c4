import type { IncomingMessage } from 'node:http';
import {
  browserSessionsKey,
  CoreError,
  operatorAuditKey,
  type AuthorizationResource,
  type Authorizer,
  type Engine,
  type Logger,
  type OperationDefinition,
  type OperationPrincipal,
} from '@corekit/abstractions';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { BrowserSessionGate } from './browser-session-gate';
import { EngineExposureGate } from './engine-exposure-gate';
import { createDetailsPolicy } from './health-exposure';
import type { HostRoute } from './host-route';
import { authorizeOperation, hostAuthorizer } from './operation-authorization';
import { HostOperatorAudit } from './operator-audit';
import type { HttpProblem } from './problem-details';
import type { AuthorizeRequest, ShowDetails } from './web-host-options';

/** True for `/engine` and every path under it: the operator surfaces `Engine:Web:EngineRoutes` guards. */
export function isEnginePath(path: string): boolean {
  return path === '/engine' || path.startsWith('/engine/');
}

/**
 * Who may reach what on one web host, decided in one place. It holds the four entries every surface asks:
 * the `authorize` hook (wrapped by the browser sessions when a package provides them, `@corekit/console`), the
 * same hook as an `Authorizer` for packages and transports, the exposure gate of the operator surfaces, and the
 * operator audit of guarded changes. `engineRoutesGuarded` decides `Engine:Web:EngineRoutes` against the
 * wrapped hook (it may throw: a refusal is a start failure like the section's).
 */
export class HostAuthorization {
  /** The hook as routes ask it; undefined when createWebHost got none. */
  readonly authorize: AuthorizeRequest | undefined;
  readonly sessions: BrowserSessionGate | undefined;
  readonly audit: HostOperatorAudit;
  /** The hook as packages and transport adapters ask it. */
  readonly authorizer: Authorizer;
  /** True when the `/engine` routes, their operations and the event streams require the hook. */
  readonly guardsEngineRoutes: boolean;
  /** The one decision of every operator surface (routes, operations, the WebSocket upgrade, OpenAPI). */
  readonly gate: EngineExposureGate;

  constructor(
    engine: Pick<Engine, 'resolve'>,
    hook: AuthorizeRequest | undefined,
    private readonly logger: Logger,
    engineRoutesGuarded: (authorize: AuthorizeRequest | undefined) => boolean,
  ) {
    const sessionAuthority = engine.resolve(browserSessionsKey);
    this.sessions = sessionAuthority ? new BrowserSessionGate(sessionAuthority) : undefined;
    this.authorize = hook && this.sessions ? this.sessions.wrap(hook) : hook;
    this.audit = new HostOperatorAudit(engine.resolve(operatorAuditKey), this.sessions);
    this.authorizer = hostAuthorizer(this.authorize, logger);
    this.guardsEngineRoutes = engineRoutesGuarded(this.authorize);
    this.gate = new EngineExposureGate(this.guardsEngineRoutes, this.authorize, logger);
  }

  /** True when a route requires the hook: its own `requireAuthorization`, else the `/engine` exposure rule. */
  isGuarded(route: Pick<HostRoute, 'path' | 'requireAuthorization'>): boolean {
    return route.requireAuthorization ?? (this.guardsEngineRoutes && isEnginePath(route.path));
  }

  /** A route that requires authorization on a host without a hook is a mistake of the code that adds it. */
  refuseUnservable(route: HostRoute): void {
    if (route.requireAuthorization && !this.authorize) {
      throw new CoreError(
        'HOST_ROUTE_INVALID',
        `${route.method.toUpperCase()} ${route.path} requires authorization but createWebHost got no authorize hook`,
      );
    }
  }

  /** True when an operation must be authorized: its declaration, else the `/engine` exposure rule. */
  isOperationGuarded(operation: OperationDefinition): boolean {
    const mode = operation.authorization?.mode;
    if (operation.authorization && mode !== 'operator') return mode === 'required';
    return this.guardsEngineRoutes && (mode === 'operator' || isEnginePath(operation.path));
  }

  /** A declared `required` policy (or a handler's further one) asks with it; the exposure rule asks the gate. */
  guardOperation(
    request: Request,
    operation: OperationDefinition,
    resource: AuthorizationResource | null,
    policy?: string,
  ): Promise<OperationPrincipal | null> {
    return policy !== undefined || operation.authorization?.mode === 'required'
      ? authorizeOperation(request, operation, this.authorize, this.logger, resource, policy)
      : this.gate.check(request, operation.id, resource);
  }

  /**
   * The middleware that guards one route before its own handlers: the CSRF check of a change made with the
   * browser session (from the host's own origin, refusals audited), then the gate, unless the handler guards.
   */
  routeGuards(route: HostRoute): RequestHandler[] {
    if (!this.isGuarded(route)) return [];
    const handlers: RequestHandler[] = [];
    if (this.sessions && route.method !== 'get') handlers.push(this.csrfCheck(route, this.sessions));
    if (!route.guardedByHandler) handlers.push(this.gateCheck);
    return handlers;
  }

  /** Whether the caller may see the `/engine` routes (in OpenAPI documents, for one). */
  admitsEngineRoutes(request: IncomingMessage): Promise<boolean> {
    return this.gate.admits(request);
  }

  /** Null to accept a request to an operator surface, else the problem it is refused with. */
  refusal(request: IncomingMessage): Promise<HttpProblem | null> {
    return this.gate.refusal(request);
  }

  /** Who sees the details of the health reports (`Engine:Web:Health:ShowDetails`). */
  detailsPolicy(showDetails: ShowDetails) {
    return createDetailsPolicy(showDetails, this.authorize, this.logger);
  }

  private readonly gateCheck = async (request: Request, _response: Response, next: NextFunction) => {
    await this.gate.check(request);
    next();
  };

  private csrfCheck(route: HostRoute, sessions: BrowserSessionGate): RequestHandler {
    const action = route.operationId ?? `${route.method.toUpperCase()} ${route.path}`;
    return sessions.csrfCheck((request, problem) =>
      this.audit.record(request, {
        action,
        principal: null,
        resource: null,
        params: { ...(request.params as Record<string, string>) },
        status: problem.status,
        code: problem.code,
      }),
    ) as RequestHandler;
  }
}
