import { spawn } from 'node:child_process';
import path from 'node:path';
import { createMemoryLogger } from '@corekit/engine-core';
import { createReminderWorker } from './reminder-worker';

describe('the sample worker host', () => {
  it('logs its lifecycle in order: initialize, start, reminder rounds, stop', async () => {
    const logger = createMemoryLogger();
    const { worker, rounds } = createReminderWorker({
      logger,
      handleSignals: false,
      environment: {},
      configuration: { Engine: { Sample: { Reminders: { IntervalSeconds: 0.05 } } } },
    });
    await worker.start();
    while (rounds() < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await worker.stop()).toBe(0);
    const messages = logger.records.map((record) => record.message);
    const order = [
      'Runtime starting',
      'billing: initialize',
      'billing: start',
      'Invoice reminders scheduled',
      'Runtime started',
      'Reminder round 1',
      'Reminder round 2',
      'Runtime stopping',
      'Invoice reminders stopped',
      'billing: stop',
      'Runtime stopped',
      'Host stopped',
    ];
    const positions = order.map((text) => messages.findIndex((message) => message.includes(text)));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // The sample's own records carry its registered ids, never the engine's runtime-started 2001.
    const own = logger.records.filter((record) => String(record.category).startsWith('sample.'));
    expect(new Set(own.map((record) => record.eventId))).toEqual(new Set([9000, 9001]));
  });

  it('composes with the web host for a health route', async () => {
    const { worker, web } = createReminderWorker({
      logger: createMemoryLogger(),
      handleSignals: false,
      environment: {},
      healthPort: 0,
    });
    const { port } = await web!.listen();
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
    expect(await worker.stop()).toBe(0);
    expect(web!.server!.listening).toBe(false);
  });

  it('`pnpm start` runs it from the sources and SIGTERM ends it with exit code 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.resolve(__dirname, '..'),
      env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.run.json' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    const started = new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('Runtime started')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await started;
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('billing: stop (ledger flushed)');
  });
});
