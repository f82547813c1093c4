import type { AuthorizationDecision, EngineBuilder } from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { createWebHost, type WebHost } from '@corekit/web-host';
import type { IncomingMessage } from 'node:http';
import {
  addNotesDigest,
  addNotesPack,
  notesPolicies,
  type NotesExtensions,
  type NotesOptionsInput,
} from '../index';

/** The signing key the tests bind; it must never appear in a log record or an answer. */
export const testSigningKey = 'notes-signing-key-5f1c9a';

/** Three topics: one per module, one read-only. */
export const testTopics: NotesOptionsInput['Topics'] = [
  { Id: 'general', Description: 'Anything' },
  { Id: 'invoices', Module: 'billing', Description: 'Invoice follow-ups' },
  { Id: 'archive', Module: 'billing', ReadOnly: true },
];

/** What the authorize hook was asked, for guarded operations. */
export interface AuthorizationCall {
  readonly policy: string | null;
  readonly operationId: string | null;
}

/**
 * A bearer scheme for the tests: no header is unauthenticated (401), `admin` may do everything, `writer`
 * only satisfies the `notes.write` policy (403 elsewhere), any other token is refused (403).
 */
export function testAuthorizer(calls: AuthorizationCall[]) {
  return (request: IncomingMessage, requirement?: AuthorizationCall): AuthorizationDecision => {
    if (requirement?.operationId)
      calls.push({ policy: requirement.policy, operationId: requirement.operationId });
    const header = request.headers.authorization;
    if (!header) return { outcome: 'unauthenticated', reason: 'Send Authorization: Bearer <token>' };
    if (header === 'Bearer admin') return { outcome: 'allowed', principal: { subject: 'admin' } };
    if (header === 'Bearer writer') return requirement?.policy === notesPolicies.write;
    return false;
  };
}

export interface NotesTestHost {
  readonly host: WebHost;
  readonly base: string;
  readonly logger: ReturnType<typeof createMemoryLogger>;
  readonly calls: AuthorizationCall[];
  request(
    path: string,
    init?: RequestInit & { token?: string; json?: unknown },
  ): Promise<{ status: number; headers: Headers; body: any; text: string }>;
}

const open: WebHost[] = [];

/** Builds an engine with the notes pack (and its digest), serves it on port 0 and starts it. */
export async function startNotesHost(
  options: {
    notes?: NotesOptionsInput;
    extensions?: NotesExtensions;
    configuration?: Record<string, unknown>;
    authorize?: boolean;
    setup?: (builder: EngineBuilder) => void;
  } = {},
): Promise<NotesTestHost> {
  const logger = createMemoryLogger();
  const builder = createEngineBuilder({
    configuration: options.configuration,
    environment: {},
    logger,
    contentRoot: __dirname,
  });
  builder.addModule({ id: 'billing', version: '1.0.0' });
  options.setup?.(builder);
  addNotesPack(
    builder,
    options.notes ?? { Topics: testTopics, SigningKey: testSigningKey, MaxBodyBytes: 1024 },
    options.extensions,
  );
  addNotesDigest(builder);
  const calls: AuthorizationCall[] = [];
  const host = createWebHost(builder, {
    port: 0,
    handleSignals: false,
    environment: {},
    ...(options.authorize === false ? {} : { authorize: testAuthorizer(calls) }),
  });
  open.push(host);
  const { url } = await host.listen();
  const base = url.replace('localhost', '127.0.0.1');
  return {
    host,
    base,
    logger,
    calls,
    async request(path, init = {}) {
      const { token, json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (token) headers.set('authorization', `Bearer ${token}`);
      if (json !== undefined) headers.set('content-type', 'application/json');
      const response = await fetch(`${base}${path}`, {
        ...rest,
        headers,
        ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      });
      const text = await response.text();
      const body = /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined;
      return { status: response.status, headers: response.headers, body, text };
    },
  };
}

/** Closes every host startNotesHost started (afterEach). */
export async function closeNotesHosts(): Promise<void> {
  await Promise.all(open.splice(0).map((host) => host.close()));
}
