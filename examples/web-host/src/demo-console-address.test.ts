import { pollUntil } from '@corekit/testing/poll-until';
import { spawnDemo, type DemoProcess } from './demo-process';

jest.setTimeout(150_000);

let demo: DemoProcess | undefined;
afterEach(async () => {
  await demo?.stop();
  demo = undefined;
});

it("pnpm demo prints the operator console's address, and the console answers there", async () => {
  // Port 0 for HTTP and gRPC: the address printed is the one the host really bound.
  demo = spawnDemo({ PORT: '0', Engine__Grpc__Port: '0' });
  const printed = /operator console\s+(http:\/\/\S+\/engine\/console)\b/;
  const output = await pollUntil(
    async () => demo!.stdout(),
    (stdout) => printed.test(stdout) || demo!.child.exitCode !== null,
    { timeoutMs: 120_000, intervalMs: 100 },
  );
  expect([demo.child.exitCode, demo.stderr()]).toEqual([null, expect.any(String)]);
  const address = printed.exec(output)?.[1];
  expect(address).toMatch(/^http:\/\/localhost:\d+\/engine\/console$/);
  expect(address).not.toMatch(/:0\//);
  const page = await fetch(address!.replace('localhost', '127.0.0.1'));
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(await page.text()).toContain('<html lang="en">');
  // Stopped like Ctrl-C: a graceful shutdown.
  expect(await demo.stop()).toBe(0);
  demo = undefined;
});
