import { startScriptedProvider } from './provider-test-harness';
import type { FakeHttpResponse, FakeHttpServer, RecordedHttpRequest } from './http-fake-server';

/** One send a provider fake received, with what it answered (the provider message id lives there). */
export interface ProviderExchange {
  readonly request: RecordedHttpRequest;
  readonly response: FakeHttpResponse;
}

/** A provider fake that keeps every exchange: the only input a pair test may build a webhook from. */
export interface RecordingProvider extends FakeHttpServer {
  readonly exchanges: readonly ProviderExchange[];
}

/**
 * Starts a recording fake of one provider send route (`METHOD /path`): `answer(request, call)` answers
 * call N (1-based); each request and its answer are kept in `exchanges`.
 */
export async function startRecordingProvider(
  route: string,
  answer: (request: RecordedHttpRequest, call: number) => FakeHttpResponse,
): Promise<RecordingProvider> {
  const exchanges: ProviderExchange[] = [];
  const server = await startScriptedProvider({
    route,
    answer: (request, call) => {
      const response = answer(request, call);
      exchanges.push({ request, response });
      return response;
    },
  });
  return Object.assign(server, { exchanges });
}

/** A status webhook as the provider would post it: the exact bytes and the headers (signature included). */
export interface ProviderWebhook {
  readonly raw: Buffer;
  readonly headers: Record<string, string>;
}

/** The callback's answer to one webhook: the HTTP status and one outcome per event. */
export interface PairAnswer {
  readonly status: number;
  readonly outcomes: readonly string[];
}

/** A started sender ↔ callback pair: one engine with the sender, its callback and the provider fake. */
export interface SenderCallbackPairRun {
  /** A new pending email invitation of `tenantId`; answers its id. */
  invite(tenantId: string): Promise<string>;
  /** Dispatches the invitation through the sender under test; answers that sender's outcome. */
  dispatch(
    tenantId: string,
    invitationId: string,
  ): Promise<{ readonly outcome: string; readonly providerMessageId: string | null }>;
  /** Every send the provider fake received, oldest first. */
  readonly exchanges: readonly ProviderExchange[];
  /** Posts a webhook to the callback under test. */
  post(webhook: ProviderWebhook): Promise<PairAnswer>;
  /** The invitation's reconciled delivery status (null before any observation). */
  deliveryStatus(tenantId: string, invitationId: string): Promise<string | null>;
  stop(): Promise<void>;
}

/** The status a pair test reports: a delivery, then a permanent bounce. */
export type PairStatus = 'delivered' | 'bounced';

/** One sender with the callback that reads its provider's status events. */
export interface SenderCallbackPair {
  /** `<sender> ↔ <callback>` (test titles start with it). */
  readonly title: string;
  /** Starts the provider fake, then an engine (knowing `tenants`) with the sender and the callback. */
  start(tenants: readonly string[]): Promise<SenderCallbackPairRun>;
  /**
   * The provider's status webhook about one exchange, in the provider's documented shape, built ONLY from
   * that exchange (the request the fake received and what it answered) and signed as the provider signs.
   * With `echoContext: false` the provider echoes none of the sender's fields (a message sent without the
   * context, by another system).
   */
  webhook(
    exchange: ProviderExchange,
    status: PairStatus,
    eventId: string,
    options: { readonly echoContext: boolean },
  ): ProviderWebhook | Promise<ProviderWebhook>;
  /** How the callback answers an event without context (provider callbacks: 200 `skipped-no-context`). */
  readonly absentContext: { readonly status: number; readonly outcome?: string };
  /**
   * The tenants of the run: `plain` (default `acme`) and `encoded`, a tenant id whose context values need
   * encoding (default `pairEncodedTenantId`); `encoded: null` for a host whose tenants are fixed (the sample
   * host), where that test is not registered.
   */
  readonly tenants?: { readonly plain?: string; readonly encoded?: string | null };
}

/** A tenant id with characters SES tags do not allow (`.`, `:`): its context values need encoding. */
export const pairEncodedTenantId = 'acme.eu:west';

/**
 * The sender ↔ callback seam suite: an invitation dispatched through the sender reaches the provider
 * fake, the provider's status webhook is built only from what the fake received, posted to the callback,
 * and reconciles the invitation (delivered, then a bounce moves it); a tenant id that needs encoding
 * round-trips; an event without context is never attached to an invitation.
 */
export function describeSenderCallbackPair(pair: SenderCallbackPair): void {
  describe(`${pair.title} (sender ↔ callback)`, () => {
    let run: SenderCallbackPairRun | undefined;
    afterEach(async () => {
      await run?.stop();
      run = undefined;
    });
    let sequence = 0;
    const eventId = () => `pair-event-${Date.now().toString(36)}-${++sequence}`;

    const plain = pair.tenants?.plain ?? 'acme';
    const encoded = pair.tenants?.encoded === undefined ? pairEncodedTenantId : pair.tenants.encoded;

    async function dispatched(tenantId: string) {
      run = await pair.start(encoded ? [plain, encoded] : [plain]);
      const invitationId = await run.invite(tenantId);
      const result = await run.dispatch(tenantId, invitationId);
      expect(result.outcome).toBe('dispatched');
      expect(run.exchanges).toHaveLength(1);
      return { run, invitationId, exchange: run.exchanges[0]! };
    }

    async function report(
      started: Awaited<ReturnType<typeof dispatched>>,
      status: PairStatus,
      echoContext = true,
    ) {
      const webhook = await pair.webhook(started.exchange, status, eventId(), { echoContext });
      return started.run.post(webhook);
    }

    it('a delivered event built from what the provider received reconciles the invitation, and a later bounce moves it', async () => {
      const started = await dispatched(plain);
      expect(await started.run.deliveryStatus(plain, started.invitationId)).toBeNull();
      expect(await report(started, 'delivered')).toEqual({ status: 200, outcomes: ['reconciled'] });
      expect(await started.run.deliveryStatus(plain, started.invitationId)).toBe('delivered');
      expect(await report(started, 'bounced')).toEqual({ status: 200, outcomes: ['reconciled'] });
      expect(await started.run.deliveryStatus(plain, started.invitationId)).toBe('bounced');
    });

    if (encoded) {
      it(`a tenant id that needs encoding (${encoded}) comes back from the provider intact`, async () => {
        const started = await dispatched(encoded);
        expect(await report(started, 'delivered')).toEqual({ status: 200, outcomes: ['reconciled'] });
        expect(await started.run.deliveryStatus(encoded, started.invitationId)).toBe('delivered');
      });
    }

    it('an event about a message that carried no context is not attached to any invitation', async () => {
      const started = await dispatched(plain);
      const answer = await report(started, 'delivered', false);
      expect(answer.status).toBe(pair.absentContext.status);
      if (pair.absentContext.outcome) expect(answer.outcomes).toEqual([pair.absentContext.outcome]);
      expect(await started.run.deliveryStatus(plain, started.invitationId)).toBeNull();
    });
  });
}
