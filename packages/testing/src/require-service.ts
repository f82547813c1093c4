import { isPortOpen } from './network-helpers';

/**
 * For tests against a real server: resolves true when `url`'s host and port accept connections. When they
 * do not, under `CI=true` it throws (the test must fail, never skip); elsewhere it warns loudly and resolves
 * false so the caller can skip.
 */
export async function requireService(
  name: string,
  url: string,
  environmentVariable: string,
): Promise<boolean> {
  const parsed = new URL(url);
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  if (await isPortOpen(parsed.hostname, port)) return true;
  const message = `${name} is not reachable at ${parsed.protocol}//${parsed.host} (set ${environmentVariable} to point the tests at a running server)`;
  if (process.env.CI === 'true')
    throw new Error(`${message}; CI=true, so the tests fail instead of skipping`);
  console.warn(`SKIPPING ${name} tests: ${message}`);
  return false;
}
