import {
  browserSessionProblemCodes,
  defineOperation,
  isOperationError,
  OperationError,
  operationResponse,
  requestOrigin,
  type OperationContext,
  type OperationDefinition,
  type OperationPrincipal,
  type OperatorAuditSink,
} from '@corekit/abstractions';
import { z } from 'zod';
import type { BrowserSessionBook } from './browser-session-book';
import { consoleSecurityHeaders, type ConsolePageSession } from './console-page';
import { signInContentSecurityPolicy, signInPage, signInStylesheet } from './sign-in-page';

/** The policy the sign-in asks the host's authorize hook about (with the presented credential). */
export const signInPolicy = 'console.sign-in';
/** Path of the sign-in page (GET) and of the sign-in itself (POST). */
export const signInPath = '/engine/console/login';
/** Path of the sign-out (POST). */
export const signOutPath = '/engine/console/logout';

export interface SignInParts {
  readonly title: string;
  readonly sessions: BrowserSessionBook;
  readonly audit: OperatorAuditSink;
  readonly idleTimeoutMinutes: number;
}

const signInHeaders = {
  ...consoleSecurityHeaders,
  'Content-Security-Policy': signInContentSecurityPolicy,
};

/** Form (`application/x-www-form-urlencoded`) or JSON fields of a sign-in or sign-out body. */
export function bodyFields(raw: Buffer | null, contentType: string | undefined): Record<string, string> {
  const text = raw?.toString('utf8') ?? '';
  if (!text) return {};
  if (/^application\/(?:[\w.+-]+\+)?json/i.test(contentType ?? '')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (!parsed || typeof parsed !== 'object') return {};
      return Object.fromEntries(
        Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
    } catch {
      throw new OperationError('invalid-input', 'CONSOLE_SIGN_IN_BODY_INVALID', 'The body is not valid JSON');
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** True when the caller asked for JSON (curl, a script) rather than a page (a browser's form post). */
function wantsJson(headers: OperationContext['headers']): boolean {
  const accept = headers.accept ?? '';
  return /application\/json/i.test(accept) && !/text\/html/i.test(accept);
}

/** True over plain http to a host other than loopback, where a browser drops a `Secure` cookie. */
function insecureTransport(headers: OperationContext['headers'], secureCookie: boolean): boolean {
  if (!secureCookie) return false;
  const protocol = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  if (protocol === 'https') return false;
  const host = (headers['x-forwarded-host'] ?? headers.host ?? '').split(',')[0]!.trim().toLowerCase();
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  const loopback =
    name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || /^127\./.test(name);
  // Over https the host never sees `x-forwarded-proto` unless a proxy sets it; a bare host name is a guess.
  return !loopback && protocol === 'http';
}

/** The session a request's cookie holds, when valid (the page shows who is signed in and embeds its token). */
export async function pageSession(
  sessions: BrowserSessionBook,
  headers: OperationContext['headers'],
): Promise<ConsolePageSession | undefined> {
  const id = cookieOf(headers.cookie, sessions.cookieName);
  if (!id || headers.authorization !== undefined) return undefined;
  const session = await sessions.resolve(id);
  return session ? { subject: session.principal.subject, csrfToken: session.csrfToken } : undefined;
}

function cookieOf(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name)
      return part.slice(separator + 1).trim() || null;
  }
  return null;
}

/**
 * The console's sign-in and sign-out: the page (anonymous, no script), its stylesheet, `POST login` (asks the
 * host's authorize hook about the presented credential with policy `console.sign-in`; on success opens a session
 * and sets its cookie), `POST logout` (revokes the session; needs its CSRF token). Each is recorded in the
 * operator audit.
 */
export function signInOperations(
  parts: SignInParts,
  secureCookie: boolean,
): OperationDefinition<any, any, any, any>[] {
  const { sessions, audit } = parts;
  const page = (status: number, context: OperationContext, error: string | null, notice: string | null) =>
    operationResponse(
      status,
      signInPage({
        title: parts.title,
        error,
        notice,
        insecureTransport: insecureTransport(context.headers, secureCookie),
      }),
      { contentType: 'text/html; charset=utf-8', headers: signInHeaders },
    );
  const recordAudit = (
    action: string,
    principal: { subject: string | null } | null,
    via: 'session' | 'credential' | 'anonymous',
    status: number,
    code: string | null,
    context: OperationContext,
  ) =>
    audit.record({
      atUtc: new Date().toISOString(),
      actor: principal?.subject ?? null,
      via,
      action,
      method: 'POST',
      path: context.requestPath ?? (action === 'console.sign-in' ? signInPath : signOutPath),
      target: null,
      outcome: status === 401 || status === 403 ? 'refused' : status >= 400 ? 'failed' : 'succeeded',
      status,
      code,
    });
  const refuseCrossOrigin = (context: OperationContext) => {
    if (requestOrigin(context.headers) === 'cross') {
      throw new OperationError(
        'forbidden',
        browserSessionProblemCodes.crossOrigin,
        'This request comes from another origin; it was refused',
      );
    }
  };

  return [
    defineOperation({
      id: 'console.sign-in-page',
      method: 'GET',
      path: signInPath,
      summary: 'The console sign-in page (HTML, no script)',
      tags: ['Console'],
      authorization: { mode: 'anonymous' },
      query: z.object({ 'signed-out': z.string().optional(), ended: z.string().optional() }),
      result: z.string().describe('text/html'),
      handler: ({ query }, context) =>
        page(
          200,
          context,
          null,
          query['signed-out'] !== undefined
            ? 'You are signed out.'
            : query.ended !== undefined
              ? 'Your session ended. Sign in again.'
              : null,
        ),
    }),
    defineOperation({
      id: 'console.sign-in-style',
      method: 'GET',
      path: '/engine/console/sign-in.css',
      summary: 'Styles of the sign-in page and the session bar',
      tags: ['Console'],
      authorization: { mode: 'anonymous' },
      result: z.string().describe('text/css'),
      handler: () =>
        operationResponse(200, signInStylesheet, {
          contentType: 'text/css; charset=utf-8',
          headers: { ...consoleSecurityHeaders, 'Cache-Control': 'public, max-age=3600' },
        }),
    }),
    defineOperation({
      id: 'console.sign-in',
      method: 'POST',
      path: signInPath,
      summary: 'Sign in: the host authorize hook judges the credential; a session cookie on success',
      description:
        'Form (credential=...) or JSON ({"credential": "..."}) body; or no body, with the credential in the Authorization header or an authenticating proxy\'s headers. A form post answers 303 to the console (401/403 with the page and the reason otherwise); a JSON request answers the session (subject, expiresAtUtc, csrfToken).',
      tags: ['Console'],
      authorization: { mode: 'anonymous' },
      rawBody: true,
      maxBodyBytes: 8192,
      result: z.object({
        subject: z.string().nullable(),
        expiresAtUtc: z.string(),
        idleTimeoutMinutes: z.number().int(),
        csrfHeader: z.string(),
        csrfToken: z.string(),
      }),
      errors: {
        unauthenticated: 'the hook did not accept the credential',
        forbidden: 'the hook refused it, or the post came from another origin',
      },
      handler: async (_input, context) => {
        const json = wantsJson(context.headers);
        let principal: OperationPrincipal;
        try {
          refuseCrossOrigin(context);
          const credential = bodyFields(context.rawBody, context.headers['content-type']).credential?.trim();
          principal = await context.authorize({
            policy: signInPolicy,
            ...(credential ? { credential } : {}),
          });
        } catch (error) {
          const status = isOperationError(error) && error.kind === 'unauthenticated' ? 401 : 403;
          const code = isOperationError(error) ? error.code : 'FORBIDDEN';
          recordAudit('console.sign-in', null, 'credential', status, code, context);
          if (json || !isOperationError(error)) throw error;
          const reason =
            status === 401
              ? 'The host did not accept this credential. Check the token and try again.'
              : 'The host refused this sign-in.';
          return page(status, context, reason, null);
        }
        const opened = await sessions.open(principal);
        recordAudit('console.sign-in', principal, 'credential', json ? 200 : 303, null, context);
        const cookie = { 'Set-Cookie': sessions.cookie(opened.id) };
        if (json) {
          return operationResponse(
            200,
            {
              subject: opened.principal.subject,
              expiresAtUtc: opened.expiresAtUtc,
              idleTimeoutMinutes: parts.idleTimeoutMinutes,
              csrfHeader: sessions.csrfHeaderName,
              csrfToken: opened.csrfToken,
            },
            { headers: cookie },
          );
        }
        return operationResponse(303, 'Signed in: see the console', {
          contentType: 'text/plain; charset=utf-8',
          headers: { ...consoleSecurityHeaders, ...cookie, Location: '../console' },
        });
      },
    }),
    defineOperation({
      id: 'console.sign-out',
      method: 'POST',
      path: signOutPath,
      summary: 'Sign out: the session is revoked on the store and its cookie cleared',
      description:
        "Needs the session's CSRF token: the X-CSRF-Token header, or the form field csrf (the console's sign-out button). Answers 303 to the sign-in page for a form post, 204 otherwise.",
      tags: ['Console'],
      authorization: { mode: 'anonymous' },
      rawBody: true,
      maxBodyBytes: 4096,
      result: z.undefined(),
      errors: { forbidden: 'no valid CSRF token, or the post came from another origin' },
      handler: async (_input, context) => {
        const id = cookieOf(context.headers.cookie, sessions.cookieName);
        const session = id ? await sessions.resolve(id) : null;
        const clear = { 'Set-Cookie': sessions.clearingCookie() };
        const done = () =>
          wantsJson(context.headers) || context.headers['content-type'] === undefined
            ? operationResponse(204, undefined, { headers: { ...consoleSecurityHeaders, ...clear } })
            : operationResponse(303, 'Signed out', {
                contentType: 'text/plain; charset=utf-8',
                headers: { ...consoleSecurityHeaders, ...clear, Location: 'login?signed-out' },
              });
        if (!id || !session) return done();
        const token =
          context.headers[sessions.csrfHeaderName] ??
          bodyFields(context.rawBody, context.headers['content-type']).csrf;
        try {
          refuseCrossOrigin(context);
          if (!sessions.csrfTokenMatches(id, token)) {
            throw new OperationError(
              'forbidden',
              browserSessionProblemCodes.csrfTokenInvalid,
              `Signing out needs the session's CSRF token (the ${sessions.csrfHeaderName} header or the csrf field)`,
            );
          }
        } catch (error) {
          recordAudit(
            'console.sign-out',
            session.principal,
            'session',
            403,
            (error as OperationError).code,
            context,
          );
          throw error;
        }
        await sessions.revoke(id);
        recordAudit('console.sign-out', session.principal, 'session', 204, null, context);
        return done();
      },
    }),
  ];
}
