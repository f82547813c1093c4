import { SpanStatusCode } from '@opentelemetry/api';
import {
  authorizeCall,
  behaviorRuntimeKey,
  callableErrorCodes,
  callableRuntimeKey,
  OperationError,
  operationErrorCodes,
  type AuthorizationResource,
  type CallableInvocation,
  type CallableRuntime,
  type Engine,
  type EngineBuilder,
  type OperationAuthorizeFunction,
  type OperationDefinition,
  type RegisteredCallable,
} from '@corekit/abstractions';
import { engineTracer } from '../diagnostics';
import { operationCallable, type OperationCallableInput } from './operation-callable';

/**
 * The engine's callable runtime (docs/adr/0001-one-callable.md): every behavior (from the behavior runtime REST
 * publication provides) and every operation a transport can serve, and the one invoke path: resource resolved
 * once, the host's authorizer asked once with policy and resource, then the input validated once and the
 * handler run in one span.
 */
export class EngineCallableRuntime implements CallableRuntime {
  private engine: Engine | undefined;
  private readonly operationCallables = new WeakMap<OperationDefinition, RegisteredCallable>();

  attach(engine: Engine): void {
    this.engine = engine;
  }

  callables(): readonly RegisteredCallable[] {
    const engine = this.engine;
    if (!engine) return [];
    const behaviors: RegisteredCallable[] = (engine.resolve(behaviorRuntimeKey)?.behaviors() ?? []).map(
      ({ moduleId, behavior }) => ({ kind: 'behavior', owner: moduleId, callable: behavior }),
    );
    const operations = engine.operations
      .list()
      .filter((operation) => !operation.rawBody)
      .map((operation) => this.operationEntry(operation));
    return [...behaviors, ...operations];
  }

  async invoke(id: string, input: unknown, invocation: CallableInvocation): Promise<unknown> {
    const entry = this.callables().find((candidate) => candidate.callable.id === id);
    if (!entry) {
      throw new OperationError(
        'not-found',
        callableErrorCodes.notFound,
        `No behavior or operation has the id "${id}"`,
      );
    }
    const { callable } = entry;
    const resource = callable.authorizationResource ? await callable.authorizationResource(input) : undefined;
    const trusted = invocation.transport === 'in-process';
    const isOperation = entry.kind === 'operation';
    const principal = trusted
      ? null
      : await authorizeCall(
          invocation.authorizer,
          { id, authorization: callable.authorization, noun: isOperation ? 'Operation' : 'Behavior' },
          { method: 'POST', path: '', headers: {}, ...invocation.request, ...(resource ? { resource } : {}) },
          isOperation ? operationErrorCodes : undefined,
        );
    if (isOperation) return this.invokeOperation(id, input, invocation, principal, resource ?? null);
    return this.invokeBehavior(id, input, invocation);
  }

  private operationEntry(operation: OperationDefinition): RegisteredCallable {
    let entry = this.operationCallables.get(operation);
    if (!entry) {
      entry = { kind: 'operation', owner: operation.owner ?? '', callable: operationCallable(operation) };
      this.operationCallables.set(operation, entry);
    }
    return entry;
  }

  private async invokeOperation(
    id: string,
    input: unknown,
    invocation: CallableInvocation,
    principal: Awaited<ReturnType<typeof authorizeCall>>,
    resource: AuthorizationResource | null,
  ): Promise<unknown> {
    const parts = (input ?? {}) as OperationCallableInput;
    const outcome = await this.engine!.operations.invoke(id, {
      params: parts.params,
      query: parts.query,
      body: parts.body,
      headers: headersOf(invocation),
      principal,
      resource,
      authorize: furtherPolicies(id, invocation, resource),
      transport: invocation.transport,
      signal: invocation.signal,
    });
    return outcome.body;
  }

  private invokeBehavior(id: string, input: unknown, invocation: CallableInvocation): Promise<unknown> {
    const behaviors = this.engine!.resolve(behaviorRuntimeKey)!;
    return engineTracer().startActiveSpan(`behavior ${id}`, async (span) => {
      span.setAttribute('corekit.behavior.id', id);
      span.setAttribute('corekit.behavior.transport', invocation.transport);
      try {
        return await behaviors.invoke(id, input, {
          transport: invocation.transport,
          endpointId: invocation.endpointId ?? null,
          signal: invocation.signal,
        });
      } catch (error) {
        if (!(error instanceof OperationError)) span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    });
  }
}

function headersOf(invocation: CallableInvocation): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  const given: Readonly<Record<string, string | string[] | undefined>> = invocation.request?.headers ?? {};
  for (const [name, value] of Object.entries(given)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * `OperationContext.authorize` over a transport: a further named policy of the same request asks the same
 * authorizer, about the operation's resource unless the requirement names another one.
 */
function furtherPolicies(
  id: string,
  invocation: CallableInvocation,
  resource: AuthorizationResource | null,
): OperationAuthorizeFunction | undefined {
  if (invocation.transport === 'in-process') return undefined;
  return async (requirement) => {
    const principal = await authorizeCall(
      invocation.authorizer,
      { id, authorization: { mode: 'required', policy: requirement.policy }, noun: 'Operation' },
      {
        method: 'POST',
        path: '',
        ...invocation.request,
        headers: requirement.credential
          ? { ...(invocation.request?.headers ?? {}), authorization: `Bearer ${requirement.credential}` }
          : (invocation.request?.headers ?? {}),
        ...((requirement.resource ?? resource) ? { resource: requirement.resource ?? resource! } : {}),
      },
      operationErrorCodes,
    );
    return principal ?? { subject: null, policy: requirement.policy, claims: {} };
  };
}

/** Provides the engine's callable runtime under `callableRuntimeKey` (every engine has one). */
export function registerCallableRuntime(builder: EngineBuilder): void {
  const runtime = new EngineCallableRuntime();
  builder.provide(callableRuntimeKey, runtime);
  builder.addLifecycleHooks({ id: 'callables', attach: (engine) => runtime.attach(engine) });
}
