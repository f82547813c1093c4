import path from 'node:path';
import { startFixture as startPackageFixture } from '@corekit/testing/child-process';

const startFixture = (fixture: string, environment?: Record<string, string>) =>
  startPackageFixture(path.resolve(__dirname, '..'), fixture, environment);

function records(lines: readonly string[]): Array<Record<string, unknown>> {
  return lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

describe('worker host in a child process', () => {
  it('stops gracefully on SIGTERM, logs its lifecycle in order and exits 0', async () => {
    const fixture = startFixture('worker-process.ts');
    await fixture.waitForLine('Runtime started');
    fixture.child.kill('SIGTERM');
    expect(await fixture.exited).toBe(0);
    const messages = records(fixture.lines).map((record) => record.message ?? record.fixture);
    const order = [
      'Runtime starting',
      'Runtime started',
      'SIGTERM received',
      'Runtime stopping',
      'module-stopped',
      'Runtime stopped',
      'Host stopped',
    ];
    const positions = order.map((text) => messages.findIndex((message) => String(message).includes(text)));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('stops gracefully on SIGINT and exits 0', async () => {
    const fixture = startFixture('worker-process.ts');
    await fixture.waitForLine('Runtime started');
    fixture.child.kill('SIGINT');
    expect(await fixture.exited).toBe(0);
    expect(fixture.lines.some((line) => line.includes('SIGINT received'))).toBe(true);
  });

  it('exits 1 when the engine fails to start, with the failure logged', async () => {
    const fixture = startFixture('worker-process.ts', { FIXTURE_MODE: 'fail-start' });
    expect(await fixture.exited).toBe(1);
    const failure = records(fixture.lines).find(
      (record) => record.category === 'worker-host' && record.eventId === 2002,
    );
    expect(String(failure?.message)).toContain('the fixture module refuses to start');
  });

  it('a second signal cuts a drain that would otherwise never end, and the host still exits 0', async () => {
    const fixture = startFixture('worker-process.ts', { FIXTURE_MODE: 'slow-drain' });
    await fixture.waitForLine('Runtime started');
    fixture.child.kill('SIGTERM');
    await fixture.waitForLine('"draining"');
    fixture.child.kill('SIGTERM');
    expect(await fixture.exited).toBe(0);
    expect(fixture.lines.some((line) => line.includes('drain-cut'))).toBe(true);
    expect(fixture.lines.some((line) => line.includes('module-stopped'))).toBe(true);
  });
});
