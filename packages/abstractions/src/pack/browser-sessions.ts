import { z } from 'zod';
import { defineExtensionKey } from './extension-key';

/**
 * Who a browser session stands for: the principal the host's authorizer granted when the operator signed in
 * (its `{ outcome: 'allowed', principal }`). A host hands it to its authorizer with every request that carries
 * the session (`AuthorizationRequest.session`), so the authorizer decides about the session as it decided about
 * the credential; the session id itself never leaves the package that issued it.
 */
export interface BrowserSessionPrincipal {
  /** The subject the authorizer named at sign-in (null when it named none). */
  readonly subject: string | null;
  readonly claims: Readonly<Record<string, unknown>>;
  /** When the operator signed in (ISO-8601 UTC). */
  readonly signedInAtUtc: string;
}

/** A session a cookie value resolved to: who it stands for, and the token a mutation made with it must carry. */
export interface ResolvedBrowserSession {
  readonly principal: BrowserSessionPrincipal;
  /**
   * The synchronizer token of this session: a mutation (POST, PUT, PATCH, DELETE) authorized by the session
   * must send it in the `csrfHeaderName` header, or the host refuses it (403). Never logged or listed.
   */
  readonly csrfToken: string;
}

/**
 * Browser sessions for a host's guarded surfaces, provided by one package (`@corekit/console`) under
 * {@link browserSessionsKey} and honoured by hosts without knowing who provides them: the host reads the
 * session cookie of each guarded request that carries no `Authorization` header, resolves it here, hands the
 * session's principal to its authorizer, refuses a mutation made with it that lacks the CSRF token or comes from
 * another origin, and sends a browser without a session that opens a guarded page to `loginPath`.
 */
export interface BrowserSessionAuthority {
  /** The cookie holding the session id. */
  readonly cookieName: string;
  /** The request header a mutation made with the session carries its CSRF token in (lower case). */
  readonly csrfHeaderName: string;
  /** Absolute path of the sign-in page (`/engine/console/login`); hosts redirect to it relatively. */
  readonly loginPath: string;
  /**
   * The session of a cookie value; null when unknown, past its lifetime, idle too long or revoked. Renews the
   * idle deadline (at most once a minute, so reads stay cheap). Never throws for a bad value.
   */
  resolve(sessionId: string): Promise<ResolvedBrowserSession | null>;
}

/** The one {@link BrowserSessionAuthority} of an engine (`builder.provide(browserSessionsKey, authority)`). */
export const browserSessionsKey = defineExtensionKey<BrowserSessionAuthority>(
  '@corekit/abstractions/browser-sessions',
  'Browser sessions (a cookie issued at sign-in) honoured by the host for its guarded surfaces',
);

/** What became of an audited operator action. */
export const operatorAuditOutcomes = ['succeeded', 'refused', 'failed'] as const;
export type OperatorAuditOutcome = (typeof operatorAuditOutcomes)[number];

/** One operator action as a host records it (`/engine/operator-audit`). Holds no credential, session id or token. */
export const operatorAuditEntrySchema = z.object({
  /** Time-ordered id (`<atUtc>-<random>`). */
  id: z.string(),
  atUtc: z.string(),
  /** The principal's subject as the authorizer named it; null for a caller it did not identify. */
  actor: z.string().nullable(),
  /**
   * How the caller came: with a browser `session`, a `credential` on the request itself (an `Authorization`
   * header, an authenticating proxy's headers), or `anonymous` (neither).
   */
  via: z.enum(['session', 'credential', 'anonymous']),
  /** The operation id (`agents.decide-run`), or `METHOD path` for a route that is not an operation. */
  action: z.string(),
  method: z.string(),
  /** The request path, without the query string. */
  path: z.string(),
  /** What it acted on: the operation's resource (`kind id @ tenant`), else its path parameters; null if none. */
  target: z.string().nullable(),
  outcome: z.enum(operatorAuditOutcomes),
  /** The HTTP status answered. */
  status: z.number().int(),
  /** The problem code of a refusal or failure (`FORBIDDEN`, `CSRF_TOKEN_INVALID`), else null. */
  code: z.string().nullable(),
});
export type OperatorAuditEntry = z.infer<typeof operatorAuditEntrySchema>;

/** Where a host records operator actions; provided by one package under {@link operatorAuditKey}. */
export interface OperatorAuditSink {
  /** Records one action; a failure is the sink's to report (a host never waits on it to answer). */
  record(entry: Omit<OperatorAuditEntry, 'id'>): void;
}

/** The one {@link OperatorAuditSink} of an engine. */
export const operatorAuditKey = defineExtensionKey<OperatorAuditSink>(
  '@corekit/abstractions/operator-audit',
  'Where a host records every guarded operation that changes state (actor, time, action, target, outcome)',
);

/** Problem codes of a mutation made with a browser session and refused as a possible cross-site request. */
export const browserSessionProblemCodes = {
  /** The CSRF token header is missing or does not match the session's. */
  csrfTokenInvalid: 'CSRF_TOKEN_INVALID',
  /** The request's `Origin` (or `Referer`) is another origin than the host's. */
  crossOrigin: 'CSRF_ORIGIN_MISMATCH',
} as const;

/** Where a request comes from, as its `Origin` (else `Referer`) and `Sec-Fetch-Site` headers say. */
export type RequestOrigin = 'same' | 'cross' | 'unknown';

function firstValue(value: string | readonly string[] | undefined): string | undefined {
  const text = typeof value === 'string' ? value : value?.[0];
  return text?.split(',')[0]?.trim() || undefined;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Where a request comes from. The browser's own word first: `Sec-Fetch-Site` (sent by every current browser)
 * `same-origin` is same; `cross-site` and `same-site` (a sibling subdomain: another origin, yet its requests carry
 * `SameSite=Strict` cookies) are cross. Without it (an older browser, or `none`: a typed address), the `Origin`
 * (else `Referer`) header against the host the request was sent to (`X-Forwarded-Host` when a proxy set it, else
 * `Host`), the scheme aside (TLS often ends at a proxy); `Origin: null` is cross. A request with none of these
 * (curl) is `unknown`: the CSRF token alone then decides. Header names lower case.
 */
export function requestOrigin(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
): RequestOrigin {
  const site = firstValue(headers['sec-fetch-site']);
  if (site === 'same-origin') return 'same';
  if (site === 'cross-site' || site === 'same-site') return 'cross';
  const claimed = firstValue(headers.origin) ?? firstValue(headers.referer);
  if (claimed === undefined) return 'unknown';
  const expected = (firstValue(headers['x-forwarded-host']) ?? firstValue(headers.host))?.toLowerCase();
  const claimedHost = claimed === 'null' ? null : hostOf(claimed);
  return claimedHost !== null && claimedHost === expected ? 'same' : 'cross';
}
