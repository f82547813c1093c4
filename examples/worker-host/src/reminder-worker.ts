import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineBuilder, HostedService, Logger } from '@corekit/abstractions';
import { createEngineBuilder } from '@corekit/engine-core';
import { createWebHost, type WebHost } from '@corekit/web-host';
import { createWorkerHost, type WorkerHost } from '@corekit/worker-host';
import { z } from 'zod';

/** The example directory, where engine.json lives. */
export const workerRoot = path.resolve(
  typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url)),
  '..',
);

const remindersSchema = z.object({
  /** Seconds between two reminder rounds. Default 5. */
  IntervalSeconds: z.number().positive().max(86_400).default(5),
});

/**
 * Event ids of the sample's own records, in 9000-9009 (outside every range Core uses; registered in
 * `addBilling`, so `/engine/diagnostics` lists them): the spec's 2000-2005 are the engine's runtime transitions.
 */
export const billingEventIds = { reminders: 9000, billingModule: 9001 } as const;

/** A hosted service that sends (logs) a round of invoice reminders on an interval. */
function reminderService(
  logger: Logger,
  intervalSeconds: number,
): HostedService & { readonly rounds: () => number } {
  let timer: NodeJS.Timeout | undefined;
  let rounds = 0;
  const log = (message: string, fields: Record<string, unknown> = {}) =>
    logger.log({
      level: 'info',
      eventId: billingEventIds.reminders,
      category: 'sample.reminders',
      message,
      ...fields,
    });
  return {
    id: 'invoice-reminders',
    rounds: () => rounds,
    start() {
      log(`Invoice reminders scheduled every ${intervalSeconds} s`);
      timer = setInterval(() => {
        rounds++;
        log(`Reminder round ${rounds}: 3 overdue invoices reminded`, { round: rounds });
      }, intervalSeconds * 1000);
    },
    stop() {
      clearInterval(timer);
      log(`Invoice reminders stopped after ${rounds} round(s)`);
    },
  };
}

/** Registers the billing module (it logs every lifecycle hook) and the reminder service. */
export function addBilling(builder: EngineBuilder): { readonly rounds: () => number } {
  const settings = builder.configuration.bind('Engine:Sample:Reminders', remindersSchema);
  builder.addEventIds({
    component: 'Sample worker: billing',
    ranges: [[9000, 9009]],
    names: { 9000: 'invoice-reminders', 9001: 'billing-module' },
  });
  const log = (message: string) =>
    builder.logger.log({
      level: 'info',
      eventId: billingEventIds.billingModule,
      category: 'sample.billing',
      message,
    });
  builder.addModule({
    id: 'billing',
    version: '0.3.0',
    capabilities: ['billing.remind'],
    initialize: () => log('billing: initialize (loading the invoice ledger)'),
    start: () => log('billing: start'),
    stop: () => log('billing: stop (ledger flushed)'),
  });
  const service = reminderService(builder.logger, settings.IntervalSeconds);
  builder.addHostedService(service);
  return service;
}

export interface ReminderWorkerOptions {
  readonly logger?: Logger;
  readonly handleSignals?: boolean;
  readonly environment?: Readonly<Record<string, string | undefined>>;
  readonly configuration?: Record<string, unknown>;
  /** Also serve the health routes (and /engine) on this port: a worker with a web host composed on it. */
  readonly healthPort?: number;
}

/** The sample worker: the billing module on a headless host, optionally with the web host for its health routes. */
export function createReminderWorker(options: ReminderWorkerOptions = {}): {
  worker: WorkerHost;
  web: WebHost | undefined;
  rounds: () => number;
} {
  const builder = createEngineBuilder({
    contentRoot: workerRoot,
    environment: options.environment ?? process.env,
    logger: options.logger,
    configuration: options.configuration,
  });
  const { rounds } = addBilling(builder);
  const worker = createWorkerHost(builder, { handleSignals: options.handleSignals });
  const web =
    options.healthPort === undefined
      ? undefined
      : createWebHost(worker, { port: options.healthPort, title: 'Core sample worker' });
  return { worker, web, rounds };
}
