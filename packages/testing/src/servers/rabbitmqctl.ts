import { execFile } from 'node:child_process';

/**
 * Runs `rabbitmqctl -q <args>` (from PATH) against the local broker and resolves with
 * its output; rejects with the tool's error output. Creating users and virtual hosts needs the rights of
 * the broker's administrator (root on the test machines).
 */
export function rabbitMqCtl(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('rabbitmqctl', ['-q', ...args], { timeout: 60000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`rabbitmqctl ${args[0]} failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/** True when rabbitmqctl runs and reaches the local broker. */
export async function isRabbitMqCtlAvailable(): Promise<boolean> {
  try {
    await rabbitMqCtl('status');
    return true;
  } catch {
    return false;
  }
}
