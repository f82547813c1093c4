import { errorKindStatus, isOperationError, type Engine } from '@corekit/abstractions';
import type * as FastCheck from 'fast-check';

/** The fast-check API the harness uses (the default import or the namespace). */
export type FastCheckApi = Omit<typeof FastCheck, 'default'>;

/** One callback request as the fuzzer builds it. */
export interface FuzzRequest {
  readonly raw: Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

/** The answer of an in-process call, errors turned into their HTTP status (anything else is a 500). */
export interface FuzzAnswer {
  readonly status: number;
  readonly code: string | null;
  readonly body: unknown;
}

/**
 * Calls the operation in process the way the web host would (raw bytes, lower-cased headers) and turns an
 * OperationError into its status; any other thrown error is answered as 500, which the property refuses.
 */
export async function invokeCallback(
  engine: Engine,
  operationId: string,
  request: FuzzRequest,
): Promise<FuzzAnswer> {
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  try {
    const outcome = await engine.operations.invoke(operationId, {
      rawBody: request.raw,
      body: request.raw,
      headers,
    });
    return { status: outcome.status, code: null, body: outcome.body };
  } catch (error) {
    if (isOperationError(error))
      return { status: errorKindStatus[error.kind], code: error.code, body: undefined };
    return { status: 500, code: (error as { code?: string })?.code ?? 'unexpected', body: String(error) };
  }
}

/** Arbitrary requests: random bytes or JSON-ish text, random headers among `headerNames` and junk values. */
export function arbitraryCallbackRequest(
  fc: FastCheckApi,
  headerNames: readonly string[],
): FastCheck.Arbitrary<FuzzRequest> {
  const body = fc.oneof(
    fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)),
    fc.json().map((text) => Buffer.from(text)),
    fc.string({ maxLength: 300 }).map((text) => Buffer.from(text)),
    fc
      .array(fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue(), { maxKeys: 6 }), { maxLength: 5 })
      .map((events) => Buffer.from(JSON.stringify(events))),
  );
  const headerValue = fc.oneof(
    fc.string({ maxLength: 120 }),
    fc.base64String({ maxLength: 120 }),
    fc.integer().map(String),
  );
  const headers = fc.dictionary(fc.constantFrom(...headerNames, 'content-type', 'x-other'), headerValue, {
    maxKeys: 6,
  });
  return fc.record({ raw: body, headers });
}

/**
 * One-change mutations of a valid signed request: a byte of the body replaced, a byte inserted or removed,
 * a header value changed or dropped. Each is a tampered request that must be refused.
 */
export function arbitraryTampering(
  fc: FastCheckApi,
  valid: FuzzRequest,
  signedHeaders: readonly string[],
): FastCheck.Arbitrary<FuzzRequest> {
  const length = valid.raw.length;
  const replaceByte = fc
    .record({ at: fc.nat({ max: Math.max(0, length - 1) }), value: fc.integer({ min: 0, max: 255 }) })
    .filter(({ at, value }) => valid.raw[at] !== value)
    .map(({ at, value }) => {
      const raw = Buffer.from(valid.raw);
      raw[at] = value;
      return { raw, headers: valid.headers };
    });
  const insertByte = fc
    .record({ at: fc.nat({ max: length }), value: fc.integer({ min: 0, max: 255 }) })
    .map(({ at, value }) => ({
      raw: Buffer.concat([valid.raw.subarray(0, at), Buffer.from([value]), valid.raw.subarray(at)]),
      headers: valid.headers,
    }));
  const dropByte = fc.nat({ max: Math.max(0, length - 1) }).map((at) => ({
    raw: Buffer.concat([valid.raw.subarray(0, at), valid.raw.subarray(at + 1)]),
    headers: valid.headers,
  }));
  const changeHeader = fc
    .record({ name: fc.constantFrom(...signedHeaders), value: fc.string({ maxLength: 120 }) })
    .filter(({ name, value }) => valid.headers[name] !== value)
    .map(({ name, value }) => ({ raw: valid.raw, headers: { ...valid.headers, [name]: value } }));
  const dropHeader = fc.constantFrom(...signedHeaders).map((name) => {
    const headers = { ...valid.headers };
    delete headers[name];
    return { raw: valid.raw, headers };
  });
  return fc.oneof(replaceByte, insertByte, dropByte, changeHeader, dropHeader);
}

/**
 * The fuzz property of every callback parser: the request never crashes the handler nor answers 5xx, is
 * refused (4xx) — an unverified event is never reconciled — and leaves the observation state
 * (`snapshot()`) exactly as it was. `accept` lets a target allow a 2xx for requests it can prove are
 * harmless (an unsigned posture); by default any 2xx fails the property.
 */
export function callbackFuzzProperty(
  fc: FastCheckApi,
  requests: FastCheck.Arbitrary<FuzzRequest>,
  target: {
    readonly invoke: (request: FuzzRequest) => Promise<FuzzAnswer>;
    readonly snapshot: () => Promise<string>;
    readonly accept?: (answer: FuzzAnswer) => boolean;
  },
) {
  return fc.asyncProperty(requests, async (request) => {
    const before = await target.snapshot();
    const answer = await target.invoke(request);
    if (answer.status >= 500) throw new Error(`answered ${answer.status} (${answer.code})`);
    const refused = answer.status >= 400;
    if (!refused && !(target.accept?.(answer) ?? false))
      throw new Error(`accepted a request it cannot have verified (${answer.status})`);
    if (refused && (await target.snapshot()) !== before)
      throw new Error('a refused request changed the observation state');
  });
}
