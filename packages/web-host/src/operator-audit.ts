import type { IncomingMessage } from 'node:http';
import type { AuthorizationResource, OperationPrincipal, OperatorAuditSink } from '@corekit/abstractions';
import type { BrowserSessionGate } from './browser-session-gate';

/** One action to record: what was asked, of what, and how it ended. */
export interface AuditedAction {
  /** The operation id, or `METHOD path` for a route that is not an operation. */
  readonly action: string;
  readonly principal: OperationPrincipal | null;
  readonly resource: AuthorizationResource | null;
  readonly params: Readonly<Record<string, string>>;
  readonly status: number;
  readonly code: string | null;
}

/** `kind id @ tenant` of a resource, else `name=value` of the path parameters; null when neither says anything. */
export function auditTarget(
  resource: AuthorizationResource | null,
  params: Readonly<Record<string, string>>,
): string | null {
  if (resource && (resource.kind || resource.id || resource.tenantId)) {
    const what = [resource.kind, resource.id].filter(Boolean).join(' ');
    return resource.tenantId ? `${what}${what ? ' ' : ''}@ ${resource.tenantId}` : what;
  }
  const named = Object.entries(params).map(([name, value]) => `${name}=${value}`);
  return named.length > 0 ? named.join(', ') : null;
}

/**
 * Records the guarded operations that change state, as the host served them, in the engine's
 * `OperatorAuditSink` (`operatorAuditKey`) when a package provides one: who (the principal's subject, else the
 * session's), how (session, credential, anonymous), when, which action on what, and the outcome. Never a
 * credential, cookie or token: only the subject the authorize hook named.
 */
export class HostOperatorAudit {
  constructor(
    private readonly sink: OperatorAuditSink | undefined,
    private readonly sessions: BrowserSessionGate | undefined,
  ) {}

  get enabled(): boolean {
    return this.sink !== undefined;
  }

  record(request: IncomingMessage & { path?: string }, action: AuditedAction): void {
    if (!this.sink) return;
    const session = this.sessions?.presented(request) ?? null;
    const via = session
      ? 'session'
      : request.headers.authorization !== undefined
        ? 'credential'
        : action.principal
          ? 'credential'
          : 'anonymous';
    const outcome =
      action.status === 401 || action.status === 403
        ? 'refused'
        : action.status >= 400
          ? 'failed'
          : 'succeeded';
    this.sink.record({
      atUtc: new Date().toISOString(),
      actor: action.principal?.subject ?? session?.principal.subject ?? null,
      via,
      action: action.action,
      method: request.method ?? 'GET',
      path: request.path ?? request.url?.split('?')[0] ?? '',
      target: auditTarget(action.resource, action.params),
      outcome,
      status: action.status,
      code: action.code,
    });
  }
}
