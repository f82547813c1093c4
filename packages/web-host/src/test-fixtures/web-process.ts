// A web host run as a child process by web-host-shutdown.test.ts, with the real signal handling. Configuration
// comes as JSON in FIXTURE_CONFIGURATION. GET /api/slow?ms=N answers after N milliseconds (an in-flight request).
import { createEngineBuilder } from '@corekit/engine-core';
import { createWebHost } from '../index';

const configuration = JSON.parse(process.env.FIXTURE_CONFIGURATION ?? '{}') as Record<string, unknown>;
const builder = createEngineBuilder({ configuration, environment: {} });
builder.addModule({ id: 'fixture-web', version: '1.0.0' });
const host = createWebHost(builder, { port: 0 });
host.addRoute({
  method: 'get',
  path: '/api/slow',
  summary: 'Answers after ?ms= milliseconds',
  responses: { 200: { description: 'done' } },
  handler: async (request, response) => {
    process.stdout.write(`${JSON.stringify({ fixture: 'slow-started' })}\n`);
    await new Promise((resolve) => setTimeout(resolve, Number(request.query.ms ?? 1000)));
    response.json({ done: true });
  },
});
void host
  .listen()
  .then(({ port }) => process.stdout.write(`${JSON.stringify({ fixture: 'listening', port })}\n`));
