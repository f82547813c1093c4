import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventClients } from './event-clients';
import type { HostRoute } from './host-route';
import { createProblem, HttpProblem, problemContentType, webHostProblemCodes } from './problem-details';

export const webSocketEventsRoute = '/engine/events/ws';

/** Handles an HTTP upgrade request on a path registered with `host.onUpgrade`. */
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void | Promise<void>;

/** Answers an upgrade request with a problem and closes the socket (no WebSocket is opened). */
export function rejectUpgrade(
  socket: Duplex,
  status: number,
  code: string,
  detail: string,
  path: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  const reasons: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    500: 'Internal Server Error',
    503: 'Service Unavailable',
  };
  const body = JSON.stringify({ ...createProblem(status, code, detail), instance: path });
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${reasons[status] ?? 'Error'}\r\nContent-Type: ${problemContentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}

/**
 * The WebSocket transport: the same runtime events as the server-sent event stream, one JSON text message per
 * event (`{ "id": n, "type": ..., ... }`), at `/engine/events/ws`. Messages from the client are ignored.
 */
export class WebSocketEvents {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  private readonly sockets = new Set<WebSocket>();

  constructor(
    private readonly clients: EventClients,
    /** Null to accept the upgrade, else the problem it is refused with (the host's exposure gate). */
    private readonly refusal: (request: IncomingMessage) => Promise<HttpProblem | null>,
  ) {}

  /** The plain-HTTP route at the same path: documents the transport and answers 426 without an upgrade. */
  routes(): HostRoute[] {
    return [
      {
        method: 'get',
        path: webSocketEventsRoute,
        rel: 'events-websocket',
        summary: 'Runtime events (WebSocket)',
        description:
          'Upgrade to a WebSocket to receive every runtime event as one JSON text message `{ id, type, ... }` (a RuntimeEvent plus its id). A request without the upgrade answers 426.',
        tags: ['Transports'],
        responses: {
          101: { description: 'Switching Protocols: the WebSocket is open' },
          426: {
            description: `Not a WebSocket upgrade (problem code ${webHostProblemCodes.upgradeRequired})`,
          },
        },
        handler: () => {
          throw new HttpProblem(
            426,
            webHostProblemCodes.upgradeRequired,
            `${webSocketEventsRoute} is a WebSocket endpoint; connect with a WebSocket client (Upgrade: websocket)`,
            {},
            { Upgrade: 'websocket' },
          );
        },
      },
    ];
  }

  readonly handleUpgrade: UpgradeHandler = async (request, socket, head) => {
    const refused = await this.refusal(request);
    if (refused) {
      rejectUpgrade(
        socket,
        refused.status,
        refused.code,
        refused.message,
        webSocketEventsRoute,
        refused.headers,
      );
      return;
    }
    if (!this.clients.canAccept()) {
      this.clients.refuse('WebSocket');
      rejectUpgrade(
        socket,
        503,
        webHostProblemCodes.tooManyConnections,
        'Too many event-stream clients are connected (Engine:Web:Events:MaxConnections), or the host is shutting down',
        webSocketEventsRoute,
      );
      return;
    }
    this.server.handleUpgrade(request, socket, head, (webSocket) => {
      this.sockets.add(webSocket);
      const remove = this.clients.add({
        transport: 'WebSocket',
        send: (event, id) => webSocket.send(JSON.stringify({ id, ...event })),
        bufferedBytes: () => webSocket.bufferedAmount,
        close: (reason) => {
          if (reason === 'backlog') webSocket.terminate();
          else webSocket.close(1001, 'host shutting down');
        },
      });
      webSocket.on('error', () => webSocket.terminate());
      webSocket.on('close', () => {
        this.sockets.delete(webSocket);
        remove();
      });
    });
  };

  /** Ends every socket at once (after the drain, so closing handshakes cannot hold the server open). */
  terminateAll(): void {
    for (const webSocket of this.sockets) webSocket.terminate();
    this.sockets.clear();
  }
}
