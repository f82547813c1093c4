import type { Logger } from '@corekit/abstractions';
import { applicationError, jsonRpcStandardCodes, standardError, type JsonRpcError } from './jsonrpc-errors';
import { jsonRpcEventIds } from './jsonrpc-event-ids';

type Id = string | number | null;

/** One JSON-RPC response object. */
export type JsonRpcResponse =
  | { readonly jsonrpc: '2.0'; readonly id: Id; readonly result: unknown }
  | { readonly jsonrpc: '2.0'; readonly id: Id; readonly error: JsonRpcError };

/** What the dispatcher needs besides the request text. */
export interface DispatchContext {
  /** The callable ids (behaviors and the operations the adapter serves) served as methods. */
  readonly methods: ReadonlySet<string>;
  readonly maxBatchSize: number;
  /**
   * Runs one served method: the engine's callable runtime resolves the resource, asks the host's authorizer,
   * validates the params and runs the handler; a refusal or expected failure is thrown as an OperationError.
   */
  readonly invoke: (method: string, params: unknown) => Promise<unknown>;
  readonly logger: Logger;
  /** Counts one call by outcome (`ok`, an error code). */
  readonly count: (method: string, outcome: string) => void;
}

const failure = (id: Id, error: JsonRpcError): JsonRpcResponse => ({ jsonrpc: '2.0', id, error });

function isValidId(id: unknown): id is Id {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

async function call(request: unknown, context: DispatchContext): Promise<JsonRpcResponse | null> {
  const invalid = (message: string, id: Id = null) =>
    failure(id, standardError(jsonRpcStandardCodes.invalidRequest, message, 'JSONRPC_INVALID_REQUEST'));
  if (!request || typeof request !== 'object' || Array.isArray(request))
    return invalid('A request must be an object');
  const { jsonrpc, method, params, id } = request as Record<string, unknown>;
  const isNotification = !('id' in request);
  if (!isNotification && !isValidId(id)) return invalid('id must be a string, a number or null');
  const replyId: Id = isNotification ? null : (id as Id);
  if (jsonrpc !== '2.0') return invalid('jsonrpc must be exactly "2.0"', replyId);
  if (typeof method !== 'string' || method === '')
    return invalid('method must be a non-empty string', replyId);
  const answer = (response: JsonRpcResponse) => (isNotification ? null : response);
  if (!context.methods.has(method)) {
    context.count('(unknown)', 'method-not-found');
    return answer(
      failure(
        replyId,
        standardError(
          jsonRpcStandardCodes.methodNotFound,
          `No method "${method.slice(0, 200)}"; methods are the behavior ids this host serves`,
          'JSONRPC_METHOD_NOT_FOUND',
        ),
      ),
    );
  }
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    context.count(method, 'invalid-params');
    return answer(
      failure(
        replyId,
        standardError(
          jsonRpcStandardCodes.invalidParams,
          'params must be an object (by-name parameters: the behavior input); positional parameters are not supported',
          'JSONRPC_PARAMS_NOT_AN_OBJECT',
        ),
      ),
    );
  }
  try {
    const result = await context.invoke(method, params ?? {});
    context.count(method, 'ok');
    return answer({ jsonrpc: '2.0', id: replyId, result: result === undefined ? null : result });
  } catch (error) {
    const expected = applicationError(error);
    if (expected) {
      context.count(method, String(expected.data?.code ?? expected.code));
      return answer(failure(replyId, expected));
    }
    context.count(method, 'internal-error');
    context.logger.log({
      level: 'error',
      eventId: jsonRpcEventIds.callFailed,
      category: 'transport-jsonrpc',
      message: `JSON-RPC method ${method} failed: ${error instanceof Error ? error.message : String(error)}`,
      method,
    });
    return answer(
      failure(
        replyId,
        standardError(
          jsonRpcStandardCodes.internalError,
          'Internal error; the host log has the details',
          'JSONRPC_INTERNAL_ERROR',
        ),
      ),
    );
  }
}

/**
 * Answers one JSON-RPC 2.0 request text: a single call or a batch (calls run concurrently, answers in request
 * order, notifications answer nothing). Returns null when nothing is to be sent (only notifications).
 */
export async function dispatchJsonRpc(
  text: string,
  context: DispatchContext,
): Promise<JsonRpcResponse | JsonRpcResponse[] | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return failure(
      null,
      standardError(
        jsonRpcStandardCodes.parseError,
        'Parse error: the body is not JSON',
        'JSONRPC_PARSE_ERROR',
      ),
    );
  }
  if (!Array.isArray(parsed)) return call(parsed, context);
  if (parsed.length === 0 || parsed.length > context.maxBatchSize) {
    return failure(
      null,
      standardError(
        jsonRpcStandardCodes.invalidRequest,
        parsed.length === 0
          ? 'A batch must hold at least one request'
          : `A batch holds at most ${context.maxBatchSize} requests (Engine:JsonRpc:MaxBatchSize); this one holds ${parsed.length}`,
        parsed.length === 0 ? 'JSONRPC_EMPTY_BATCH' : 'JSONRPC_BATCH_TOO_LARGE',
      ),
    );
  }
  const answers = await Promise.all(parsed.map((request) => call(request, context)));
  const sent = answers.filter((answer): answer is JsonRpcResponse => answer !== null);
  return sent.length === 0 ? null : sent;
}
