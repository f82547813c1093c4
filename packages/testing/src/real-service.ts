import { requireService } from './require-service';

/** The tests of one describe block that need a server already running on the machine. */
export interface RealService {
  /** Whether the server answered in the block's `beforeAll` (false before it ran). */
  readonly reachable: boolean;
  /**
   * A jest test that runs `test` only when the server is reachable. It never hides a missing server in CI:
   * under `CI=true` the `beforeAll` gate throws, so every test of the block fails.
   */
  it(title: string, test: () => Promise<unknown>, timeoutMs?: number): void;
}

/**
 * Registers a `beforeAll` in the current describe block that checks `url` with `requireService(name, url,
 * environmentVariable)`: the tests fail under `CI=true` when the server is missing, and elsewhere warn and
 * return early.
 */
export function realService(name: string, url: string, environmentVariable: string): RealService {
  let reachable = false;
  beforeAll(async () => {
    reachable = await requireService(name, url, environmentVariable);
  });
  return {
    get reachable() {
      return reachable;
    },
    it(title, test, timeoutMs) {
      it(
        title,
        async () => {
          if (!reachable) return;
          await test();
        },
        timeoutMs,
      );
    },
  };
}

/** Host, Port, Username, Password (when the URL has one) and Database of a database server URL. */
export interface DatabaseLogin {
  readonly Host: string;
  readonly Port: number;
  readonly Username: string;
  readonly Password?: string;
  readonly Database: string;
}

/**
 * The separate-field login of a server URL such as `mysql://root@127.0.0.1:3306/test`, with `defaults` for
 * what the URL leaves out.
 */
export function databaseLoginFromUrl(
  url: string,
  defaults: { readonly port: number; readonly username: string; readonly database: string },
): DatabaseLogin {
  const parsed = new URL(url);
  return {
    Host: parsed.hostname,
    Port: Number(parsed.port || defaults.port),
    Username: decodeURIComponent(parsed.username || defaults.username),
    ...(parsed.password ? { Password: decodeURIComponent(parsed.password) } : {}),
    Database: parsed.pathname.slice(1) || defaults.database,
  };
}
