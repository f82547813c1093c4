import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Health answers of the two fake upstream services; the demo routes flip them. `hang` (set by tests only, the
 * demo route does not offer it) never answers, so the check runs into its timeout for real.
 */
export interface UpstreamState {
  inventory: 'up' | 'down';
  pricing: 'up' | 'slow' | 'down' | 'hang';
}

/**
 * A small HTTP server the sample serves itself, so its dependency contributors have something real to probe on
 * a fresh machine: `GET /inventory/healthz` and `GET /pricing/healthz` (200 when up, 503 when down; pricing can
 * also answer 200 with `{"status":"degraded"}`, or not at all).
 */
export class InventoryUpstream {
  readonly state: UpstreamState = { inventory: 'up', pricing: 'up' };
  private server: Server | undefined;
  private readonly routes = new Map<string, (request: IncomingMessage, response: ServerResponse) => void>();
  private address: string | undefined;

  /** Serves one more path on this server (the sample's alert receiver). */
  addRoute(path: string, handler: (request: IncomingMessage, response: ServerResponse) => void): void {
    this.routes.set(path, handler);
  }

  /** `http://127.0.0.1:<port>` once listening. */
  get url(): string | undefined {
    return this.address;
  }

  async listen(port = 0): Promise<string> {
    const server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
        response.end(JSON.stringify(body));
      };
      const route = this.routes.get(path);
      if (route) return route(request, response);
      if (path === '/inventory/healthz') {
        return this.state.inventory === 'up'
          ? reply(200, { status: 'ok', items: 1284 })
          : reply(503, { status: 'down' });
      }
      if (path === '/pricing/healthz') {
        if (this.state.pricing === 'hang') return; // the socket stays open until the client gives up or close()
        if (this.state.pricing === 'down') return reply(503, { status: 'down' });
        return reply(
          200,
          this.state.pricing === 'slow'
            ? { status: 'degraded', reason: 'price feed lagging: quotes are up to 90 s old' }
            : { status: 'ok' },
        );
      }
      return reply(404, { status: 'unknown path' });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.address;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
