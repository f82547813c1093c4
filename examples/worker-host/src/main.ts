// `pnpm --filter @corekit/example-worker-host start`: a headless worker that logs its lifecycle. Set
// WORKER_HEALTH_PORT to also serve /health/live and /health/ready (the web host composed on the worker host).
import { createReminderWorker } from './reminder-worker';

const healthPort = process.env.WORKER_HEALTH_PORT ? Number(process.env.WORKER_HEALTH_PORT) : undefined;
const { worker, web } = createReminderWorker({ healthPort });
if (web) await web.listen();
process.exitCode = await worker.run();
