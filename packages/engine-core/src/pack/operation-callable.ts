import type { CallableAuthorization, CallableDefinition, OperationDefinition } from '@corekit/abstractions';
import { z, type ZodType } from 'zod';

/** The input of an operation seen as a callable: the request parts it declares, each as REST takes it. */
export interface OperationCallableInput {
  readonly params?: Record<string, string>;
  readonly query?: Record<string, unknown>;
  readonly body?: unknown;
}

/**
 * An operation as a callable (docs/adr/0001-one-callable.md): its input is the object `{ params, query, body }`
 * with exactly the parts it declares and the very schemas REST validates (the operation registry validates
 * them once, at invoke); its output is its result; what it acts on is its own `authorizationResource`, asked
 * with the parts as they arrived. An operation that declares no authorization, or `operator` (the web host's
 * `/engine` exposure rule, an HTTP rule), is `required` with no named policy on every other transport.
 */
export function operationCallable(operation: OperationDefinition): CallableDefinition {
  const parts: Record<string, ZodType> = {};
  if (operation.params) parts.params = operation.params;
  if (operation.query) parts.query = operation.query;
  if (operation.body) parts.body = operation.body;
  const resource = operation.authorizationResource;
  return Object.freeze({
    id: operation.id,
    description: operation.description ? `${operation.summary}. ${operation.description}` : operation.summary,
    input: z.object(parts),
    output: operation.result,
    authorization: callableAuthorization(operation),
    ...(resource
      ? {
          authorizationResource: (input: unknown) => {
            const given = (input && typeof input === 'object' ? input : {}) as OperationCallableInput;
            return resource({ params: given.params ?? {}, query: given.query ?? {}, body: given.body });
          },
        }
      : {}),
  });
}

function callableAuthorization(operation: OperationDefinition): CallableAuthorization {
  const declared = operation.authorization;
  if (declared?.mode === 'anonymous' || declared?.mode === 'required') return declared;
  return { mode: 'required' };
}
