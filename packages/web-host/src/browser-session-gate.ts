import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import {
  browserSessionProblemCodes,
  requestOrigin,
  type BrowserSessionAuthority,
  type RequestOrigin,
  type ResolvedBrowserSession,
} from '@corekit/abstractions';
import type { NextFunction, Request, Response } from 'express';
import { HttpProblem } from './problem-details';
import type { AuthorizeRequest } from './web-host-options';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The value of one cookie in a `Cookie` header (the first of that name), or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    return value === '' ? null : value;
  }
  return null;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.split(',')[0]?.trim() || undefined;
}

function sameSecret(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The relative URL from a request path to an absolute path, so a proxy's sub-path is kept. */
export function relativeLocation(fromPath: string, toPath: string): string {
  const directory = fromPath.slice(0, fromPath.lastIndexOf('/') + 1) || '/';
  return path.posix.relative(directory, toPath) || '.';
}

/** What one request's session lookup found (memoized per request). */
interface Lookup {
  readonly session: ResolvedBrowserSession | null;
  readonly origin: RequestOrigin;
}

/**
 * The host side of browser sessions (`BrowserSessionAuthority`, provided by a package such as
 * `@corekit/console`): reads the session cookie of a request that carries no `Authorization` header, hands the
 * session's principal to the authorize hook (`requirement.session`), lets a mutation use the session only once
 * its CSRF token and origin were checked, and sends a browser that may not see a guarded page to the sign-in
 * page. A request with an `Authorization` header is never judged by its cookie (no ambient credential: no CSRF).
 */
export class BrowserSessionGate {
  private readonly lookups = new WeakMap<IncomingMessage, Promise<Lookup>>();
  private readonly settled = new WeakMap<IncomingMessage, Lookup>();
  /** Mutations whose CSRF token and origin were checked: only these may be authorized by their session. */
  private readonly verified = new WeakSet<IncomingMessage>();

  constructor(private readonly authority: BrowserSessionAuthority) {}

  /** The session the request carries (null: none, unknown, expired, or an `Authorization` header wins). */
  private lookup(request: IncomingMessage): Promise<Lookup> {
    let found = this.lookups.get(request);
    if (!found) {
      found = this.find(request).then((result) => {
        this.settled.set(request, result);
        return result;
      });
      this.lookups.set(request, found);
    }
    return found;
  }

  private async find(request: IncomingMessage): Promise<Lookup> {
    const origin = requestOrigin(request.headers);
    if (request.headers.authorization !== undefined) return { session: null, origin };
    const id = cookieValue(request.headers.cookie, this.authority.cookieName);
    if (!id) return { session: null, origin };
    try {
      return { session: await this.authority.resolve(id), origin };
    } catch {
      return { session: null, origin };
    }
  }

  /** The session a settled lookup found on this request, used or refused (audit: who acted). */
  presented(request: IncomingMessage): ResolvedBrowserSession | null {
    return this.settled.get(request)?.session ?? null;
  }

  private usable(request: IncomingMessage, found: Lookup): boolean {
    if (!found.session || found.origin === 'cross') return false;
    return safeMethods.has(request.method ?? 'GET') || this.verified.has(request);
  }

  /** The hook, asked with `requirement.session` whenever the request carries a usable session. */
  wrap(authorize: AuthorizeRequest): AuthorizeRequest {
    return async (request, requirement) => {
      const found = await this.lookup(request);
      if (!this.usable(request, found)) {
        return requirement ? authorize(request, requirement) : authorize(request);
      }
      return authorize(request, {
        policy: null,
        operationId: null,
        ...requirement,
        session: found.session!.principal,
      });
    };
  }

  /**
   * Refuses a mutation of a guarded route made with the session cookie that does not carry the session's CSRF
   * token in `csrfHeaderName` (403 CSRF_TOKEN_INVALID) or comes from another origin (403 CSRF_ORIGIN_MISMATCH);
   * passes every other request (a bearer token, no cookie, an unknown or expired session: the hook decides).
   * `onRefused` records the refusal (the operator audit).
   */
  csrfCheck(onRefused: (request: Request, problem: HttpProblem) => void) {
    return async (request: Request, _response: Response, next: NextFunction) => {
      if (safeMethods.has(request.method)) return next();
      const found = await this.lookup(request);
      if (!found.session) return next();
      const given = firstHeader(request.headers[this.authority.csrfHeaderName]);
      const problem =
        found.origin === 'cross'
          ? new HttpProblem(
              403,
              browserSessionProblemCodes.crossOrigin,
              'This request carries the browser session but comes from another origin; it was refused',
            )
          : !given || !sameSecret(given, found.session.csrfToken)
            ? new HttpProblem(
                403,
                browserSessionProblemCodes.csrfTokenInvalid,
                `A change made with the browser session must carry the session's CSRF token in the ${this.authority.csrfHeaderName} header`,
              )
            : null;
      if (problem) {
        onRefused(request, problem);
        return next(problem);
      }
      this.verified.add(request);
      next();
    };
  }

  /**
   * Sends a browser that opens a guarded page without a usable session (a 401 to a GET that accepts HTML) to the
   * sign-in page with `303 See Other` and a relative `Location`; API clients keep their JSON 401.
   */
  loginRedirect() {
    return (error: unknown, request: Request, response: Response, next: NextFunction) => {
      const html = /\btext\/html\b/i.test(request.headers.accept ?? '');
      if (
        !(error instanceof HttpProblem) ||
        error.status !== 401 ||
        !html ||
        !safeMethods.has(request.method)
      ) {
        next(error);
        return;
      }
      response
        .status(303)
        .set('Location', relativeLocation(request.path, this.authority.loginPath))
        .set('Cache-Control', 'no-store')
        .type('text/plain')
        .send('Sign in first: see the sign-in page');
    };
  }
}
