import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import {
  CoreError,
  isIdentifier,
  isOperationResponse,
  OperationError,
  operationErrorCodes,
  type ConfigurationReader,
  type Engine,
  type Logger,
  type OperationAuthorizeFunction,
  type OperationContext,
  type OperationDefinition,
  type OperationInvocation,
  type OperationOutcome,
  type OperationRegistry,
  type PackCounter,
} from '@corekit/abstractions';
import type { ZodType } from 'zod';
import { engineTracer } from '../diagnostics';

const methods = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** The `:name` parameters of an operation path. */
export function pathParameterNames(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}

function objectKeys(schema: ZodType | undefined): string[] | undefined {
  const shape = (schema as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : undefined;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'object' && !Buffer.isBuffer(value) && Object.keys(value as object).length === 0)
  );
}

interface Issue {
  readonly path: string;
  readonly message: string;
}

function parsePart(part: string, schema: ZodType | undefined, value: unknown, issues: Issue[]): unknown {
  if (!schema) {
    if (!isEmpty(value)) {
      const names = value && typeof value === 'object' ? Object.keys(value as object).join(', ') : 'a value';
      issues.push({ path: part, message: `this operation takes no ${part} (got ${names})` });
    }
    return undefined;
  }
  const parsed = schema.safeParse(part === 'body' ? value : (value ?? {}));
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    issues.push({ path: [part, ...issue.path.map(String)].join('.'), message: issue.message });
  }
  return undefined;
}

/** Everything an invocation needs from the engine. */
export interface OperationRuntime {
  readonly configuration: ConfigurationReader;
  readonly logger: Logger;
  readonly engine: Engine;
  /** Operations answer only while this is true (the engine is Started). */
  isAvailable(): boolean;
  readonly counter: PackCounter;
}

/** Registered operations: validated at build, invoked by hosts and tests. */
/**
 * `OperationContext.authorize` without a transport's authorizer: an in-process caller is trusted (it may
 * call `invoke` anyway), so the policy is allowed with the invocation's principal; a transport that did
 * not pass its authorizer is refused, never silently allowed.
 */
function inProcessAuthorize(invocation: OperationInvocation): OperationAuthorizeFunction {
  return async ({ policy }) => {
    if ((invocation.transport ?? 'in-process') !== 'in-process') {
      throw new OperationError(
        'unauthenticated',
        operationErrorCodes.unauthenticated,
        `Policy ${policy} needs the host's authorizer, which the ${invocation.transport} transport did not pass`,
      );
    }
    return {
      subject: invocation.principal?.subject ?? null,
      policy,
      claims: invocation.principal?.claims ?? {},
    };
  };
}

export class EngineOperationRegistry implements OperationRegistry {
  private readonly operations: OperationDefinition[] = [];
  private runtime: OperationRuntime | undefined;

  add(operation: OperationDefinition, owner: string | null): void {
    this.operations.push(Object.freeze({ ...operation, owner: operation.owner ?? owner ?? undefined }));
  }

  /** Problems with the registered operations, as sentences (ids, paths, parameters, duplicates). */
  problems(): string[] {
    const problems: string[] = [];
    const ids = new Set<string>();
    const routes = new Map<string, string>();
    for (const operation of this.operations) {
      const label = `operation ${JSON.stringify(operation.id)}`;
      if (!isIdentifier(operation.id)) problems.push(`${label}: the id is not a valid identifier`);
      else if (ids.has(operation.id)) problems.push(`${label} is registered twice`);
      ids.add(operation.id);
      if (!methods.has(operation.method))
        problems.push(`${label}: method must be one of ${[...methods].join(', ')}`);
      if (
        typeof operation.path !== 'string' ||
        !operation.path.startsWith('/') ||
        /\s|\?/.test(operation.path)
      ) {
        problems.push(`${label}: path must be absolute, without spaces or a query string`);
        continue;
      }
      const parameters = pathParameterNames(operation.path);
      const declared = objectKeys(operation.params);
      if (parameters.length > 0 && !declared) {
        problems.push(
          `${label}: the path has parameters (${parameters.join(', ')}) but no params object schema`,
        );
      } else if (declared) {
        const missing = parameters.filter((name) => !declared.includes(name));
        const extra = declared.filter((name) => !parameters.includes(name));
        if (missing.length || extra.length) {
          problems.push(
            `${label}: params schema keys (${declared.join(', ')}) must be the path parameters (${parameters.join(', ')})`,
          );
        }
      }
      if (operation.query && !objectKeys(operation.query))
        problems.push(`${label}: query must be an object schema`);
      if (typeof operation.handler !== 'function') problems.push(`${label}: handler must be a function`);
      const route = `${operation.method} ${operation.path.replace(/:[^/]+/g, ':')}`;
      const clash = routes.get(route);
      if (clash)
        problems.push(`${label} and operation "${clash}" both serve ${operation.method} ${operation.path}`);
      routes.set(route, operation.id);
    }
    return problems;
  }

  attach(runtime: OperationRuntime): void {
    this.runtime = runtime;
  }

  list(): readonly OperationDefinition[] {
    return [...this.operations];
  }

  find(id: string): OperationDefinition | undefined {
    return this.operations.find((operation) => operation.id === id);
  }

  async invoke(id: string, invocation: OperationInvocation = {}): Promise<OperationOutcome> {
    const operation = this.find(id);
    if (!operation) {
      throw new OperationError('not-found', operationErrorCodes.notFound, `No operation has the id "${id}"`);
    }
    const runtime = this.runtime;
    if (!runtime || !runtime.isAvailable()) {
      throw new OperationError(
        'unavailable',
        operationErrorCodes.unavailable,
        'The runtime is not started; operations answer once it has started',
      );
    }
    // The resource is resolved once, from the input as it arrived, before validation (a host passes the one
    // it authorized; in process the engine resolves it), and an ambiguous request is refused here.
    const resource =
      invocation.resource !== undefined
        ? invocation.resource
        : operation.authorizationResource
          ? await operation.authorizationResource({
              params: invocation.params ?? {},
              query: invocation.query ?? {},
              body: invocation.body,
            })
          : null;
    const issues: Issue[] = [];
    const params = parsePart('params', operation.params, invocation.params, issues);
    const query = parsePart('query', operation.query, invocation.query, issues);
    const body = operation.rawBody
      ? invocation.body
      : parsePart('body', operation.body, invocation.body, issues);
    if (issues.length > 0) {
      runtime.counter.add(1, { operation: id, outcome: 'invalid-input' });
      throw new OperationError(
        'invalid-input',
        operationErrorCodes.inputInvalid,
        `The request does not match the input of ${id}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
        { errors: issues },
      );
    }
    const context: OperationContext = {
      operationId: id,
      transport: invocation.transport ?? 'in-process',
      headers: invocation.headers ?? {},
      rawBody: operation.rawBody ? (invocation.rawBody ?? Buffer.alloc(0)) : null,
      requestPath: invocation.requestPath ?? null,
      principal: invocation.principal ?? null,
      resource,
      authorize: invocation.authorize ?? inProcessAuthorize(invocation),
      configuration: runtime.configuration,
      logger: runtime.logger,
      engine: runtime.engine,
      signal: invocation.signal ?? new AbortController().signal,
    };
    const run = async (span: Span | undefined): Promise<OperationOutcome> => {
      span?.setAttribute('corekit.operation.id', id);
      span?.setAttribute('corekit.operation.transport', context.transport);
      try {
        const answer = await operation.handler({ params, query, body } as never, context);
        const outcome = this.outcome(operation, answer);
        span?.setAttribute('corekit.operation.status', outcome.status);
        runtime.counter.add(1, { operation: id, outcome: 'completed' });
        return outcome;
      } catch (error) {
        const kind = error instanceof OperationError ? error.kind : 'error';
        runtime.counter.add(1, { operation: id, outcome: kind });
        // On the transport's span the transport sets the status (HTTP: a 5xx answer).
        if (kind === 'error' && invocation.tracing !== 'request-span') {
          span?.setStatus({ code: SpanStatusCode.ERROR });
        }
        throw error;
      }
    };
    // The transport's server span covers this invocation alone: annotate it rather than repeat it.
    if (invocation.tracing === 'request-span') return run(trace.getActiveSpan());
    return engineTracer().startActiveSpan(`operation ${id}`, (span) => run(span).finally(() => span.end()));
  }

  private outcome(operation: OperationDefinition, answer: unknown): OperationOutcome {
    const response = isOperationResponse(answer) ? answer : undefined;
    const status = response?.status ?? operation.successStatus ?? 200;
    const contentType = response?.contentType ?? 'application/json';
    const raw = response ? response.body : answer;
    let body = raw;
    if (status >= 200 && status < 300 && contentType === 'application/json') {
      const parsed = operation.result.safeParse(raw);
      if (!parsed.success) {
        throw new CoreError(
          operationErrorCodes.resultInvalid,
          `Operation ${operation.id} answered something its result schema rejects (a defect of ${operation.owner ?? 'its owner'})`,
          {
            errors: parsed.error.issues.map((issue) => ({
              path: issue.path.join('.'),
              message: issue.message,
            })),
          },
        );
      }
      body = parsed.data;
    }
    return { status, body, headers: { ...(response?.headers ?? {}) }, contentType };
  }
}
