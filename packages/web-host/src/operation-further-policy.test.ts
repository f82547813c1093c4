import { defineOperation, isOperationError, type EngineBuilder } from '@corekit/abstractions';
import { z } from 'zod';
import { closeTestHosts, startTestHost } from './test-support/test-host';

afterEach(closeTestHosts);

/** An operation guarded by `notes.write` whose body may ask for `notes.pin` too (answered with its own code). */
function pinnedNotes(builder: EngineBuilder) {
  builder.addOperation(
    defineOperation({
      id: 'notes.write',
      method: 'POST',
      path: '/engine/notes',
      summary: 'Writes a note, pinned only with a further grant',
      authorization: { mode: 'required', policy: 'notes.write' },
      body: z.object({ pinned: z.boolean() }),
      result: z.object({ pinned: z.boolean(), by: z.string().nullable() }),
      async handler({ body }, context) {
        if (!body.pinned) return { pinned: false, by: context.principal?.subject ?? null };
        try {
          const granted = await context.authorize({ policy: 'notes.pin' });
          return { pinned: true, by: granted.subject };
        } catch (error) {
          if (isOperationError(error)) return { pinned: false, by: `refused:${error.kind}:${error.code}` };
          throw error;
        }
      },
    }),
  );
}

it('a handler asks the same authorize hook for a further policy of the same request, and a refusal reaches it as an OperationError', async () => {
  const asked: Array<string | null | undefined> = [];
  const { request } = await startTestHost({
    setup: pinnedNotes,
    host: {
      authorize: (incoming, requirement) => {
        asked.push(requirement?.policy);
        const token = String(incoming.headers.authorization ?? '');
        if (token === 'Bearer editor') return { outcome: 'allowed', principal: { subject: 'editor-1' } };
        if (token === 'Bearer writer') {
          return requirement?.policy === 'notes.write'
            ? { outcome: 'allowed', principal: { subject: 'writer-1' } }
            : { outcome: 'forbidden' };
        }
        return { outcome: 'unauthenticated' };
      },
    },
  });
  const post = (token: string, pinned: boolean) =>
    request('/engine/notes', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ pinned }),
    });
  expect((await post('editor', true)).body).toEqual({ pinned: true, by: 'editor-1' });
  expect(asked).toEqual(['notes.write', 'notes.pin']);
  expect((await post('writer', true)).body).toEqual({ pinned: false, by: 'refused:forbidden:FORBIDDEN' });
  expect((await post('writer', false)).body).toEqual({ pinned: false, by: 'writer-1' });
});

it('in process the further policy is allowed with the invocation principal; another transport without an authorizer is refused', async () => {
  const { host } = await startTestHost({ setup: pinnedNotes });
  const principal = { subject: 'job-1', policy: null, claims: {} };
  expect(
    (await host.engine.operations.invoke('notes.write', { body: { pinned: true }, principal })).body,
  ).toEqual({ pinned: true, by: 'job-1' });
  expect(
    (await host.engine.operations.invoke('notes.write', { body: { pinned: true }, transport: 'grpc' })).body,
  ).toEqual({ pinned: false, by: 'refused:unauthenticated:UNAUTHENTICATED' });
});
