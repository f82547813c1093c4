import {
  startHttpFakeServer,
  type FakeHttpHandler,
  type FakeHttpServer,
  type RecordedHttpRequest,
} from './http-fake-server';

/**
 * A local server speaking a notifier's service API (`handler`: Slack's incoming webhooks, PagerDuty's Events API
 * v2...), with faults a test can inject in front of it: the next answers forced to a status (500 twice, then the
 * real handler), or requests held open and never answered (a timeout).
 */
export interface NotifierService {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  /** Every request received, oldest first (faulted ones too). */
  readonly requests: RecordedHttpRequest[];
  /** The requests the real handler accepted (answered 2xx). */
  readonly accepted: RecordedHttpRequest[];
  /** Answers the next `times` requests with `status` (and `headers`) instead of the real handler. */
  failNext(status: number, times?: number, headers?: Record<string, string>): void;
  /** Holds every request from now on open without answering, until `answerAgain()` or `close()`. */
  hang(): void;
  answerAgain(): void;
  close(): Promise<void>;
}

export async function startNotifierService(handler: FakeHttpHandler): Promise<NotifierService> {
  const faults: Array<{ status: number; headers?: Record<string, string> }> = [];
  const accepted: RecordedHttpRequest[] = [];
  let hanging = false;
  const held: Array<() => void> = [];
  const running: FakeHttpServer = await startHttpFakeServer(async (request) => {
    if (hanging) {
      await new Promise<void>((resolve) => held.push(resolve));
      return { status: 503, body: 'released' };
    }
    const fault = faults.shift();
    if (fault) return { status: fault.status, headers: fault.headers, body: { error: 'injected fault' } };
    const answer = await handler(request);
    if (answer.status >= 200 && answer.status < 300) accepted.push(request);
    return answer;
  });
  return {
    url: running.url,
    requests: running.requests,
    accepted,
    failNext(status, times = 1, headers) {
      for (let index = 0; index < times; index++) faults.push({ status, headers });
    },
    hang() {
      hanging = true;
    },
    answerAgain() {
      hanging = false;
      for (const release of held.splice(0)) release();
    },
    async close() {
      hanging = false;
      for (const release of held.splice(0)) release();
      await running.close();
    },
  };
}
