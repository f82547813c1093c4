import { runtimeEventSchema } from '@corekit/abstractions';
import type { Response } from 'express';
import type { EventClients } from './event-clients';
import type { HostRoute } from './host-route';
import { HttpProblem, webHostProblemCodes } from './problem-details';

export const serverSentEventsRoute = '/engine/events';

/**
 * `GET /engine/events` (transport ServerSentEvents): a `text/event-stream` of runtime events. Each event has
 * `id` (increasing), `event` (the event type: health-changed, dependency-changed, dependency-checked, runtime-story, pack-event) and `data`
 * (the event as JSON). A comment line is sent every `heartbeatMs` so proxies keep the stream open; on shutdown
 * a final `shutdown` event is sent and the stream ends.
 */
export function serverSentEventsRoutes(
  clients: EventClients,
  heartbeatMs: number,
  releaseFromDrain: (response: Response) => void,
): HostRoute[] {
  return [
    {
      method: 'get',
      path: serverSentEventsRoute,
      rel: 'events',
      summary: 'Runtime events (server-sent events)',
      description:
        'A text/event-stream of health status changes, dependency status changes and runtime-story entries. Each message: `id`, `event` (the type) and `data` (the event JSON).',
      tags: ['Transports'],
      responses: {
        200: {
          description: 'An event stream; `data` of every message is a RuntimeEvent',
          contentType: 'text/event-stream',
          schema: runtimeEventSchema,
        },
        503: {
          description: `Engine:Web:Events:MaxConnections reached (problem code ${webHostProblemCodes.tooManyConnections})`,
        },
      },
      handler: (request, response) => {
        if (!clients.canAccept()) {
          clients.refuse('ServerSentEvents');
          throw new HttpProblem(
            503,
            webHostProblemCodes.tooManyConnections,
            'Too many event-stream clients are connected (Engine:Web:Events:MaxConnections); retry later',
            {},
            { 'Retry-After': '5' },
          );
        }
        response.status(200);
        response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
        response.setHeader('Cache-Control', 'no-store');
        response.setHeader('X-Accel-Buffering', 'no');
        response.flushHeaders();
        response.write('retry: 5000\n: connected\n\n');
        releaseFromDrain(response);
        const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), heartbeatMs);
        heartbeat.unref();
        const remove = clients.add({
          transport: 'ServerSentEvents',
          send: (event, id) =>
            void response.write(`id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`),
          bufferedBytes: () => response.writableLength,
          close: (reason) => {
            clearInterval(heartbeat);
            if (reason === 'backlog') {
              response.destroy();
              return;
            }
            response.write('event: shutdown\ndata: {}\n\n');
            response.end();
          },
        });
        request.on('close', () => {
          clearInterval(heartbeat);
          remove();
        });
      },
    },
  ];
}
