import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '@corekit/abstractions';
import type { ShutdownParticipant } from '@corekit/worker-host';
import type { EventClients } from './event-clients';
import { webHostProblemCodes } from './problem-details';
import type { RequestDrain } from './request-drain';
import { webHostEventIds } from './web-host-event-ids';
import { rejectUpgrade, type UpgradeHandler, type WebSocketEvents } from './websocket-events';

/**
 * The web host's part of a shutdown: drain (event streams end, only the health routes answer, in-flight requests
 * finish or are cut after `drainTimeoutMs` or a second signal), then, after `engine.stop()`, close the server.
 */
export function httpShutdownParticipant(parts: {
  readonly drain: RequestDrain;
  readonly eventClients: EventClients;
  readonly server: () => Server | undefined;
  readonly webSocketEvents: () => WebSocketEvents | undefined;
  readonly drainTimeoutMs: number;
  readonly logger: Logger;
}): ShutdownParticipant {
  const { drain, eventClients, logger } = parts;
  const log = (level: 'info' | 'warn', eventId: number, message: string) =>
    logger.log({ level, eventId, category: 'web-host', message });
  return {
    name: 'web-host',
    refuse() {
      drain.refuse();
    },
    async drain(signal) {
      log(
        'info',
        webHostEventIds.drainStarted,
        `Draining: ${drain.inFlightCount} request(s) in flight; only the health routes answer until shutdown completes`,
      );
      eventClients.closeAll();
      parts.server()?.closeIdleConnections();
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), parts.drainTimeoutMs);
      const outcome = await drain.drain(AbortSignal.any([signal, timeout.signal]));
      clearTimeout(timer);
      if (outcome === 'cut') {
        log(
          'warn',
          webHostEventIds.drainTimedOut,
          `Drain cut with ${drain.inFlightCount} request(s) still in flight (Engine:Web:DrainTimeout or a second signal)`,
        );
        parts.server()?.closeAllConnections();
      } else {
        log('info', webHostEventIds.drainCompleted, 'Drain completed: no request in flight');
      }
    },
    async close() {
      parts.webSocketEvents()?.terminateAll();
      eventClients.closeAll();
      const closing = parts.server();
      if (!closing?.listening) return;
      await new Promise<void>((resolve) => {
        closing.close(() => resolve());
        closing.closeAllConnections();
      });
    },
  };
}

/** Routes an HTTP upgrade to the handler registered for its exact path: 404 for others, 503 while draining. */
export function upgradeDispatcher(handlers: ReadonlyMap<string, UpgradeHandler>, isDraining: () => boolean) {
  return (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (request.url ?? '/').split('?')[0];
    const handler = handlers.get(path);
    if (isDraining()) {
      rejectUpgrade(socket, 503, webHostProblemCodes.shuttingDown, 'The host is shutting down', path);
      return;
    }
    if (!handler) {
      rejectUpgrade(socket, 404, webHostProblemCodes.routeNotFound, `No WebSocket endpoint at ${path}`, path);
      return;
    }
    socket.on('error', () => socket.destroy());
    Promise.resolve(handler(request, socket, head)).catch(() => {
      rejectUpgrade(
        socket,
        500,
        webHostProblemCodes.internalError,
        'The upgrade failed; the host log has the details',
        path,
      );
    });
  };
}
