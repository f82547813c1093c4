import {
  startHttpFakeServer,
  type FakeHttpResponse,
  type FakeHttpServer,
  type RecordedHttpRequest,
} from './http-fake-server';

/** One step of a provider script: an HTTP status to answer with, 'hang' (never answer), or a marker of the test's own. */
export type ProviderScriptStep = number | string;

/** A local fake of one provider endpoint, answering call N with step N of `script` when there is one. */
export interface ScriptedProviderOptions {
  /** The one route the provider serves, as `METHOD /path`; any other request is answered 404. */
  readonly route: string;
  /** Step N answers call N (1-based): a number answers that status with `failureBody`, 'hang' never answers. */
  readonly script?: readonly ProviderScriptStep[];
  /** The JSON body of a scripted status; default `{ message: 'scripted' }`. */
  readonly failureBody?: FakeHttpResponse['body'];
  /** Runs on every request to the route before the script (an authorization check); an answer stops there. */
  readonly authorize?: (request: RecordedHttpRequest) => FakeHttpResponse | undefined;
  /**
   * Answers a call the script does not: no step, or a step that is neither a number nor 'hang'. `call` counts
   * every request from 1.
   */
  readonly answer: (
    request: RecordedHttpRequest,
    call: number,
    step: ProviderScriptStep | undefined,
  ) => FakeHttpResponse;
}

/**
 * Starts a recording HTTP fake of a provider endpoint (a mail API) whose failures a test scripts call by call:
 * statuses, a hang (for client timeouts), or markers the test's `answer` understands.
 */
export function startScriptedProvider(options: ScriptedProviderOptions): Promise<FakeHttpServer> {
  const [method, path] = options.route.split(' ');
  let calls = 0;
  return startHttpFakeServer((request): FakeHttpResponse | Promise<FakeHttpResponse> => {
    calls++;
    const step = options.script?.[calls - 1];
    if (step === 'hang') return new Promise<FakeHttpResponse>(() => undefined);
    if (request.method !== method || request.path !== path) return { status: 404 };
    const refused = options.authorize?.(request);
    if (refused) return refused;
    if (typeof step === 'number')
      return { status: step, body: options.failureBody ?? { message: 'scripted' } };
    return options.answer(request, calls, step);
  });
}

/** What `senderTestHarness().start` returns: the host under test and the local provider it talks to. */
export interface StartedSenderTest<Host, Provider> {
  readonly host: Host;
  readonly provider: Provider;
}

/**
 * Per-test lifecycle of a sender test: `start(startProvider, startHost)` starts a local provider (an HTTP fake,
 * an SMTP server) and then the host aimed at it; after each test the host stops and the provider closes.
 * Starting again within a test replaces both (the test stops the first pair itself).
 */
export function senderTestHarness<Host extends { stop(): Promise<unknown> }>() {
  let host: Host | undefined;
  let provider: { close(): Promise<unknown> } | undefined;
  afterEach(async () => {
    await host?.stop();
    await provider?.close();
    host = undefined;
    provider = undefined;
  });
  return {
    async start<Provider extends { close(): Promise<unknown> }>(
      startProvider: () => Promise<Provider>,
      startHost: (provider: Provider) => Promise<Host>,
    ): Promise<StartedSenderTest<Host, Provider>> {
      const started = await startProvider();
      provider = started;
      const startedHost = await startHost(started);
      host = startedHost;
      return { host: startedHost, provider: started };
    },
  };
}

/** The part of a sender test host `expectTransportErrorAfterClose` drives. */
export interface DispatchingHost {
  invite(): Promise<string>;
  dispatch(invitationId: string): Promise<{ readonly outcomes: readonly unknown[] }>;
  leaks(): readonly unknown[];
}

/**
 * Closes the local provider, dispatches a fresh invitation and expects it sender-failed with reason
 * transport-error and queued for retry, with nothing left open by the host.
 */
export async function expectTransportErrorAfterClose(
  host: DispatchingHost,
  provider: { close(): Promise<unknown> },
): Promise<void> {
  await provider.close();
  const down = await host.dispatch(await host.invite());
  expect(down.outcomes[0]).toMatchObject({
    outcome: 'sender-failed',
    reason: 'transport-error',
    retryQueued: true,
  });
  expect(host.leaks()).toEqual([]);
}

/**
 * Awaits `attempt(input)` for every row and expects each to reject with an error matching the row's pattern:
 * the refusal tables of registration tests (`[options, /Section:Key/]`).
 */
export async function expectEachRejected<Input>(
  rows: readonly (readonly [input: Input, error: RegExp])[],
  attempt: (input: Input) => Promise<unknown>,
): Promise<void> {
  for (const [input, error] of rows) await expect(attempt(input)).rejects.toThrow(error);
}

/**
 * A test registered only when `condition` holds (an opt-in live test whose variable is set), so a run without
 * it reports no skipped test; nothing is registered otherwise.
 */
export function itOnlyWhen(
  condition: boolean,
  title: string,
  test: () => Promise<unknown>,
  timeoutMs?: number,
): void {
  if (condition) it(title, test, timeoutMs);
}
