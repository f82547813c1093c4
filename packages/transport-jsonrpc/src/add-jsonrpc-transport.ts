import type { IncomingMessage, ServerResponse } from 'node:http';
import { callableRuntimeKey, type EngineBuilder, type TransportAdapter } from '@corekit/abstractions';
import {
  beginTransportRegistration,
  jsonBodyRefusal,
  readBoundedBody,
  servedCallableIds,
  servedCallables,
  type TransportDescription,
} from '@corekit/transport-kit';
import { dispatchJsonRpc } from './jsonrpc-dispatcher';
import { jsonRpcStandardCodes, standardError } from './jsonrpc-errors';
import { jsonRpcEventIdNames, jsonRpcEventIdRange, jsonRpcEventIds } from './jsonrpc-event-ids';
import {
  jsonRpcOptionsSchema,
  jsonRpcSectionPath,
  type JsonRpcOptions,
  type JsonRpcOptionsInput,
} from './jsonrpc-options';

/** Registration key of `addJsonRpcTransport` (a second call is refused). */
export const jsonRpcRegistrationKey = '@corekit/transport-jsonrpc';

const jsonRpcTransport: TransportDescription<JsonRpcOptions> = {
  transport: 'JsonRpc',
  packageName: jsonRpcRegistrationKey,
  functionName: 'addJsonRpcTransport',
  section: { path: jsonRpcSectionPath, schema: jsonRpcOptionsSchema },
  calls: {
    name: 'corekit.transport.jsonrpc.calls',
    description: 'JSON-RPC calls by method (behavior id) and outcome (ok or the error code)',
  },
  eventIds: { component: 'Transport: JSON-RPC', ranges: [jsonRpcEventIdRange], names: jsonRpcEventIdNames },
  displayName: 'JSON-RPC 2.0 transport',
};

function send(response: ServerResponse, status: number, body: unknown): void {
  if (body === null) {
    response.statusCode = 204;
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}

/**
 * Registers the JSON-RPC 2.0 adapter (`Engine:Transports` value `JsonRpc`): every non-streaming behavior is a
 * method (method = behavior id, params = the behavior input as a by-name object), served by HTTP POST at
 * `Engine:JsonRpc:Path` on the web host. It serves nothing unless the host lists `JsonRpc` in
 * `Engine:Transports`, and it adds nothing to the REST catalogs or OpenAPI beyond the one endpoint.
 * It cannot serve positional params, and it has no server-to-client notifications.
 */
export function addJsonRpcTransport(builder: EngineBuilder, options?: JsonRpcOptionsInput): TransportAdapter {
  const registration = beginTransportRegistration(builder, jsonRpcTransport, options);
  const { settings, logger, calls, category } = registration;
  let methods: (() => ReadonlySet<string>) | undefined;
  let totals = { requests: 0, calls: 0, failures: 0 };

  const adapter: TransportAdapter = {
    name: 'JsonRpc',
    mount({ engine, http, authorize }) {
      if (!http) return;
      const callables = engine.resolve(callableRuntimeKey)!;
      methods = servedCallableIds(servedCallables(callables, settings.Operations));
      const handler = async (request: IncomingMessage, response: ServerResponse) => {
        totals = { ...totals, requests: totals.requests + 1 };
        const body = await readBoundedBody(request, settings.MaxBodyBytes);
        if (body === 'too-large') {
          logger.log({
            level: 'warn',
            eventId: jsonRpcEventIds.requestRefused,
            category,
            message: `JSON-RPC request refused: the body exceeds Engine:JsonRpc:MaxBodyBytes (${settings.MaxBodyBytes})`,
          });
          return send(response, 413, {
            jsonrpc: '2.0',
            id: null,
            error: standardError(
              jsonRpcStandardCodes.invalidRequest,
              `The body exceeds ${settings.MaxBodyBytes} bytes (Engine:JsonRpc:MaxBodyBytes)`,
              'JSONRPC_BODY_TOO_LARGE',
            ),
          });
        }
        const refusal = jsonBodyRefusal(request.headers['content-type'], body);
        if (refusal) {
          return send(response, 415, {
            jsonrpc: '2.0',
            id: null,
            error: standardError(
              jsonRpcStandardCodes.invalidRequest,
              `${refusal}: JSON-RPC requests are UTF-8 application/json`,
              'JSONRPC_UNSUPPORTED_MEDIA_TYPE',
            ),
          });
        }
        const aborted = new AbortController();
        response.on('close', () => {
          if (!response.writableFinished) aborted.abort();
        });
        const answer = await dispatchJsonRpc(body, {
          methods: methods!(),
          maxBatchSize: settings.MaxBatchSize,
          // The one invoke path (docs/adr/0001-one-callable.md): resource, authorization, validation, span.
          invoke: (method, params) =>
            callables.invoke(method, params, {
              transport: 'json-rpc',
              authorizer: authorize,
              request: { method: 'POST', path: settings.Path, headers: request.headers, raw: request },
              signal: aborted.signal,
            }),
          logger,
          count: (method, outcome) => {
            totals = {
              ...totals,
              calls: totals.calls + 1,
              failures: totals.failures + (outcome === 'ok' ? 0 : 1),
            };
            calls.add(1, { method, outcome });
          },
        });
        send(response, 200, answer);
      };
      http.handle(settings.Path, ['POST'], handler, {
        summary: 'JSON-RPC 2.0 endpoint: method = behavior id, params = behavior input',
        requireAuthorization: settings.RequireAuthorization || undefined,
      });
      logger.log({
        level: 'info',
        eventId: jsonRpcEventIds.mounted,
        category,
        message: `JSON-RPC transport mounted at POST ${settings.Path} (${methods().size} methods)`,
        path: settings.Path,
      });
    },
    mountedOperations: () => [...(methods?.() ?? [])].sort(),
  };

  return registration.complete(adapter, () => ({
    mounted: methods !== undefined,
    metadata: {
      path: settings.Path,
      maxBodyBytes: settings.MaxBodyBytes,
      maxBatchSize: settings.MaxBatchSize,
      ...totals,
    },
  }));
}
