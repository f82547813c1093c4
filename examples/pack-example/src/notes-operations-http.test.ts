import { errorKindStatus } from '@corekit/abstractions';
import { closeNotesHosts, startNotesHost, type NotesTestHost } from './test-support/notes-test-host';

afterEach(closeNotesHosts);

/** Asserts an RFC 9457 answer with the status the error-kind table gives `kind` and the problem `code`. */
function expectProblem(answer: Awaited<ReturnType<NotesTestHost['request']>>, status: number, code?: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ status, type: expect.stringMatching(/^urn:corekit:problem:/) });
  if (code) expect(answer.body.code).toBe(code);
}

describe('notes operations over HTTP', () => {
  it('answers each operation, and each expected failure with the error-kind table status and problem details', async () => {
    const host = await startNotesHost();
    const created = await host.request('/engine/notes/general', {
      method: 'POST',
      token: 'writer',
      json: { id: 'n1', text: 'Call the printer vendor' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 'n1',
      topic: 'general',
      version: 1,
      text: 'Call the printer vendor',
    });
    expect(created.body.signature).toMatch(/^[0-9a-f]{64}$/);

    // conflict: compare-and-set on "absent" refuses a second note with the same id
    const duplicate = await host.request('/engine/notes/general', {
      method: 'POST',
      token: 'writer',
      json: { id: 'n1', text: 'again' },
    });
    expectProblem(duplicate, errorKindStatus.conflict, 'NOTE_ALREADY_EXISTS');
    expect(duplicate.body.currentVersion).toBe(1);
    const readOnly = await host.request('/engine/notes/archive', {
      method: 'POST',
      token: 'writer',
      json: { text: 'x' },
    });
    expectProblem(readOnly, errorKindStatus.conflict, 'NOTES_TOPIC_READ_ONLY');

    // invalid-input: body, params and query are validated before the handler runs
    const empty = await host.request('/engine/notes/general', {
      method: 'POST',
      token: 'writer',
      json: { text: '  ' },
    });
    expectProblem(empty, errorKindStatus['invalid-input'], 'OPERATION_INPUT_INVALID');
    const unknownField = await host.request('/engine/notes/general', {
      method: 'POST',
      token: 'writer',
      json: { text: 'ok', colour: 'red' },
    });
    expectProblem(unknownField, 400, 'OPERATION_INPUT_INVALID');
    expectProblem(await host.request('/engine/notes/general?limit=0'), 400, 'OPERATION_INPUT_INVALID');

    // not-found
    const noTopic = await host.request('/engine/notes/recipes', {
      method: 'POST',
      token: 'writer',
      json: { text: 'x' },
    });
    expectProblem(noTopic, errorKindStatus['not-found'], 'NOTES_TOPIC_NOT_FOUND');
    expectProblem(
      await host.request('/engine/notes/general/n404'),
      errorKindStatus['not-found'],
      'NOTE_NOT_FOUND',
    );

    // too-large: Notes:MaxBodyBytes (1024 here) is the operation's maxBodyBytes, refused before the handler
    const large = await host.request('/engine/notes/general', {
      method: 'POST',
      token: 'writer',
      json: { text: 'x'.repeat(1500) },
    });
    expectProblem(large, errorKindStatus['too-large']);

    // reads
    const list = await host.request('/engine/notes/general?limit=10');
    expect(list.status).toBe(200);
    expect(list.body.notes.map((note: { id: string }) => note.id)).toEqual(['n1']);
    expect((await host.request('/engine/notes/general/n1')).body).toEqual(created.body);

    // delete with compare-and-set: a stale version is a conflict, the read version deletes, then it is gone
    const stale = await host.request('/engine/notes/general/n1?expectedVersion=7', {
      method: 'DELETE',
      token: 'admin',
    });
    expectProblem(stale, errorKindStatus.conflict, 'NOTE_VERSION_CONFLICT');
    expect(stale.body.currentVersion).toBe(1);
    const deleted = await host.request('/engine/notes/general/n1?expectedVersion=1', {
      method: 'DELETE',
      token: 'admin',
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, topic: 'general', id: 'n1' });
    const again = await host.request('/engine/notes/general/n1', { method: 'DELETE', token: 'admin' });
    expectProblem(again, errorKindStatus['not-found'], 'NOTE_NOT_FOUND');
  });

  it('asks the authorize hook with the named policy: 401 without credentials, 403 refused, 200 allowed', async () => {
    const host = await startNotesHost();
    await host.request('/engine/notes/general', {
      method: 'POST',
      token: 'writer',
      json: { id: 'a', text: 'one' },
    });
    expect(host.calls).toEqual([{ policy: 'notes.write', operationId: 'notes.create' }]);

    const anonymous = await host.request('/engine/notes/general/a', { method: 'DELETE' });
    expectProblem(anonymous, errorKindStatus.unauthenticated, 'UNAUTHENTICATED');
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    const refused = await host.request('/engine/notes/general/a', { method: 'DELETE', token: 'writer' });
    expectProblem(refused, errorKindStatus.forbidden, 'FORBIDDEN');
    const stranger = await host.request('/engine/notes-expiry/runs', { method: 'POST', token: 'stranger' });
    expectProblem(stranger, 403, 'FORBIDDEN');
    // the handler never ran for the refused calls: the note is still there
    expect((await host.request('/engine/notes/general/a')).status).toBe(200);

    const allowed = await host.request('/engine/notes/general/a', { method: 'DELETE', token: 'admin' });
    expect(allowed.status).toBe(200);
    expect(host.calls.slice(1)).toEqual([
      { policy: 'notes.admin', operationId: 'notes.delete' },
      { policy: 'notes.admin', operationId: 'notes.delete' },
      { policy: 'notes.admin', operationId: 'notes.run-expiry' },
      { policy: 'notes.admin', operationId: 'notes.delete' },
    ]);
  });

  it('answers 403 for a guarded operation when the host has no authorize hook (nobody can be let in), and never runs the handler', async () => {
    const host = await startNotesHost({ authorize: false });
    const answer = await host.request('/engine/notes/general', {
      method: 'POST',
      token: 'admin',
      json: { text: 'x' },
    });
    expectProblem(answer, 403, 'FORBIDDEN');
    expect((await host.request('/engine/notes/general')).body.notes).toEqual([]);
  });
});
