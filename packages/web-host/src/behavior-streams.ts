import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  authorizeCall,
  behaviorRuntimeKey,
  errorKindStatus,
  isOperationError,
  streamItemSchema,
  type Authorizer,
  type BehaviorDefinition,
  type Engine,
  type HttpMount,
  type Logger,
} from '@corekit/abstractions';
import { WebSocketServer } from 'ws';
import type { ZodType } from 'zod';
import { rejectUpgrade } from './websocket-events';

/** Event ids of behavior streams, in the web host's range (2010-2019). */
export const behaviorStreamEventIds = { mounted: 2018, failed: 2019 } as const;

/** Where the streams are served. */
export interface BehaviorStreamOptions {
  readonly serverSentEvents: boolean;
  readonly webSocket: boolean;
  /** Path prefix. Default `/streams`: `GET /streams/{behaviorId}` (SSE) and `/streams/{behaviorId}/ws`. */
  readonly basePath?: string;
  readonly logger?: Logger;
  /**
   * The host's authorizer, asked with the behavior's policy before a stream of a behavior declaring
   * `authorization: { mode: 'required' }` opens (SSE: a 401/403 problem; WebSocket: the upgrade is refused
   * with 401/403). Absent: such streams are refused 401.
   */
  readonly authorize?: Authorizer;
}

type Frame =
  | { type: 'item'; data: unknown }
  | { type: 'end' }
  | { type: 'error'; status: number; code: string; message: string };

function errorFrame(error: unknown): Extract<Frame, { type: 'error' }> {
  if (isOperationError(error))
    return { type: 'error', status: errorKindStatus[error.kind], code: error.code, message: error.message };
  return {
    type: 'error',
    status: 500,
    code: 'STREAM_FAILED',
    message: 'The stream failed; the host log has the details',
  };
}

/**
 * Mounts every streaming behavior (output `streamingOutput(item)`) on the transports asked for:
 * `GET {basePath}/{behaviorId}?input={json}` answers `text/event-stream` with one `item` event per item and an
 * `end` event; `{basePath}/{behaviorId}/ws` sends `{ "type": "item", "data": ... }` messages then `{ "type":
 * "end" }` and closes 1000. Invalid input, unknown state and behavior errors answer problem details before the
 * stream opens (SSE) or an `error` message and close code 4000 + HTTP status (WebSocket). Streams end when
 * the client leaves (the handler's signal aborts) or when the engine leaves Started. Returns the paths mounted.
 */
export function mountBehaviorStreams(
  engine: Engine,
  http: HttpMount,
  options: BehaviorStreamOptions,
): string[] {
  const runtime = engine.resolve(behaviorRuntimeKey);
  if (!runtime || (!options.serverSentEvents && !options.webSocket)) return [];
  const base = options.basePath ?? '/streams';
  const active = new Set<AbortController>();
  engine.subscribe(() => {
    if (engine.state !== 'Started') for (const controller of active) controller.abort();
  });
  const log = (behaviorId: string, error: unknown) =>
    options.logger?.log({
      level: 'error',
      eventId: behaviorStreamEventIds.failed,
      category: 'behavior-streams',
      message: `Stream of behavior ${behaviorId} failed: ${error instanceof Error ? error.message : String(error)}`,
      behaviorId,
    });

  /** The `input` query parameter as JSON, or `{}` when absent or not JSON (opening the stream refuses that). */
  function queryInput(request: IncomingMessage): unknown {
    const raw = new URL(request.url ?? '/', 'http://host').searchParams.get('input');
    try {
      return raw ? JSON.parse(raw) : {};
    } catch {
      return {};
    }
  }

  /** Null when the caller may open the stream, else the refusal as an error frame (asked with its resource). */
  async function refusal(behavior: BehaviorDefinition, request: IncomingMessage) {
    try {
      const resource = await behavior.authorizationResource?.(queryInput(request));
      await authorizeCall(options.authorize, behavior, {
        method: request.method ?? 'GET',
        path: (request.url ?? '/').split('?')[0]!,
        headers: request.headers,
        raw: request,
        ...(resource ? { resource } : {}),
      });
      return null;
    } catch (error) {
      return errorFrame(error);
    }
  }

  /** Opens the stream; null and an error frame when it cannot open. */
  async function open(
    behaviorId: string,
    request: IncomingMessage,
    transport: string,
    controller: AbortController,
  ) {
    let input: unknown = {};
    const raw = new URL(request.url ?? '/', 'http://host').searchParams.get('input');
    try {
      if (raw) input = JSON.parse(raw);
    } catch {
      return {
        error: {
          type: 'error',
          status: 400,
          code: 'STREAM_INPUT_NOT_JSON',
          message: 'input must be JSON',
        } as const,
      };
    }
    try {
      const iterable = (await runtime!.invoke(behaviorId, input, {
        transport,
        signal: controller.signal,
      })) as AsyncIterable<unknown>;
      return { iterable };
    } catch (error) {
      if (!isOperationError(error)) log(behaviorId, error);
      return { error: errorFrame(error) };
    }
  }

  /** Sends every item (validated) through `send`, then an end or error frame. */
  async function pump(
    behaviorId: string,
    item: ZodType,
    iterable: AsyncIterable<unknown>,
    controller: AbortController,
    send: (frame: Frame) => void,
  ) {
    try {
      for await (const value of iterable) {
        if (controller.signal.aborted) break;
        const parsed = item.safeParse(value);
        if (!parsed.success)
          throw new Error(`an item does not match the item schema: ${parsed.error.message.slice(0, 300)}`);
        send({ type: 'item', data: parsed.data });
      }
      if (!controller.signal.aborted) send({ type: 'end' });
    } catch (error) {
      if (!isOperationError(error)) log(behaviorId, error);
      if (!controller.signal.aborted) send(errorFrame(error));
    }
  }

  const paths: string[] = [];
  const webSockets = options.webSocket
    ? new WebSocketServer({ noServer: true, maxPayload: 4096 })
    : undefined;
  for (const { behavior } of runtime.behaviors()) {
    const item = streamItemSchema(behavior);
    if (!item) continue;
    const path = `${base}/${behavior.id}`;
    if (options.serverSentEvents) {
      paths.push(path);
      http.handle(
        path,
        ['GET'],
        async (request: IncomingMessage, response: ServerResponse) => {
          const refused = await refusal(behavior, request);
          if (refused) {
            const { status, code, message } = refused;
            response.writeHead(status, { 'Content-Type': 'application/problem+json' });
            response.end(JSON.stringify({ type: 'about:blank', title: code, status, detail: message, code }));
            return;
          }
          const controller = new AbortController();
          active.add(controller);
          response.on('close', () => controller.abort());
          const opened = await open(behavior.id, request, 'server-sent-events', controller);
          if (opened.error) {
            const { status, code, message } = opened.error;
            response.writeHead(status, { 'Content-Type': 'application/problem+json' });
            response.end(JSON.stringify({ type: 'about:blank', title: code, status, detail: message, code }));
            active.delete(controller);
            return;
          }
          response.writeHead(200, {
            'Content-Type': 'text/event-stream; charset=utf-8',
            'Cache-Control': 'no-cache',
          });
          let id = 0;
          await pump(behavior.id, item, opened.iterable!, controller, (frame) => {
            const data = frame.type === 'item' ? frame.data : frame.type === 'end' ? {} : frame;
            response.write(`id: ${++id}\nevent: ${frame.type}\ndata: ${JSON.stringify(data)}\n\n`);
          });
          active.delete(controller);
          response.end();
        },
        { summary: `Stream of behavior ${behavior.id} (server-sent events; input as ?input=JSON)` },
      );
    }
    if (webSockets) {
      paths.push(`${path}/ws`);
      http.onUpgrade(`${path}/ws`, async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        const refused = await refusal(behavior, request);
        if (refused) {
          rejectUpgrade(socket, refused.status, refused.code, refused.message, `${path}/ws`);
          return;
        }
        webSockets.handleUpgrade(request, socket, head, (client) => {
          const controller = new AbortController();
          active.add(controller);
          client.on('close', () => controller.abort());
          void (async () => {
            const opened = await open(behavior.id, request, 'websocket', controller);
            if (opened.error) {
              client.send(JSON.stringify(opened.error));
              client.close(4000 + opened.error.status, opened.error.code.slice(0, 100));
            } else {
              let closeCode = 1000;
              await pump(behavior.id, item, opened.iterable!, controller, (frame) => {
                if (frame.type === 'error') closeCode = 4000 + frame.status;
                client.send(JSON.stringify(frame));
              });
              client.close(controller.signal.aborted ? 1001 : closeCode);
            }
            active.delete(controller);
          })();
        });
      });
    }
  }
  if (paths.length > 0)
    options.logger?.log({
      level: 'info',
      eventId: behaviorStreamEventIds.mounted,
      category: 'behavior-streams',
      message: `Behavior streams mounted: ${paths.join(', ')}`,
    });
  return paths;
}
