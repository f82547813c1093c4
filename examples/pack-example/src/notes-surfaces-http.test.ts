import { closeNotesHosts, startNotesHost, testSigningKey } from './test-support/notes-test-host';

afterEach(closeNotesHosts);

/** Reads a server-sent event stream until `predicate` matches one event's data, then closes it. */
async function nextEvent(base: string, predicate: (data: any) => boolean, act: () => Promise<unknown>) {
  const controller = new AbortController();
  const response = await fetch(`${base}/engine/events`, { signal: controller.signal });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  await act();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended before the event arrived');
      buffer += decoder.decode(value, { stream: true });
      for (const block of buffer.split('\n\n').slice(0, -1)) {
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        if (data && predicate(JSON.parse(data.slice(6)))) return JSON.parse(data.slice(6));
      }
      buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
    }
  } finally {
    controller.abort();
  }
}

describe('notes pack surfaces over HTTP', () => {
  it('serves the catalog list, by-id, the module narrowing and the read-only view, and its snapshot field', async () => {
    const host = await startNotesHost();
    const ids = (body: Array<{ id: string }>) => body.map((entry) => entry.id);
    expect(ids((await host.request('/engine/note-topics')).body)).toEqual(['general', 'invoices', 'archive']);
    expect(ids((await host.request('/engine/note-topics/modules/billing')).body)).toEqual([
      'invoices',
      'archive',
    ]);
    expect((await host.request('/engine/note-topics/modules/crm')).body).toEqual([]);
    expect(ids((await host.request('/engine/note-topics/read-only')).body)).toEqual(['archive']);
    expect((await host.request('/engine/note-topics/invoices')).body).toEqual({
      id: 'invoices',
      module: 'billing',
      description: 'Invoice follow-ups',
      readOnly: false,
    });
    const missing = await host.request('/engine/note-topics/recipes');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('CATALOG_ENTRY_NOT_FOUND');
    expect(ids((await host.request('/engine/snapshot')).body.noteTopics)).toEqual([
      'general',
      'invoices',
      'archive',
    ]);
  });

  it('lists every notes operation and catalog route in the OpenAPI document', async () => {
    const host = await startNotesHost();
    const { paths } = (await host.request('/openapi/v1.json')).body;
    const operationIds = Object.values(
      paths as Record<string, Record<string, { operationId?: string }>>,
    ).flatMap((methods) => Object.values(methods).map((operation) => operation.operationId));
    expect(operationIds).toEqual(
      expect.arrayContaining(['notes.create', 'notes.list', 'notes.get', 'notes.delete', 'notes.run-expiry']),
    );
    expect(Object.keys(paths['/engine/notes/{topic}']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/engine/notes/{topic}/{noteId}']).sort()).toEqual(['delete', 'get']);
    expect(Object.keys(paths['/engine/notes/{topic}'].post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '404', '409', '413']),
    );
    expect(paths['/engine/note-topics/read-only']).toBeDefined();
    expect(paths['/engine/note-topics/modules/{moduleId}']).toBeDefined();
  });

  it("shows the pack's story entries, event ids, counters, job state, surface and warning; pushes its runtime events", async () => {
    const host = await startNotesHost({
      configuration: { Engine: { Transports: ['RestApi', 'ServerSentEvents'] } },
    });
    const event = await nextEvent(
      host.base,
      (data) => data.type === 'pack-event' && data.name === 'notes.note-created',
      () =>
        host.request('/engine/notes/invoices', {
          method: 'POST',
          token: 'writer',
          json: { id: 'inv-7', text: 'Ask' },
        }),
    );
    expect(event).toMatchObject({ subjectId: 'invoices', data: { noteId: 'inv-7' } });

    const story = (await host.request('/engine/runtime-story')).body;
    expect(story.timeline).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'notes', subjectId: 'invoices', transition: 'note-created' }),
        expect.objectContaining({ kind: 'job', subjectId: 'notes.expire' }),
      ]),
    );
    const diagnostics = (await host.request('/engine/diagnostics')).body;
    expect(diagnostics.eventIds).toContainEqual(
      expect.objectContaining({
        component: 'Example notes pack',
        ranges: [[3300, 3309]],
        names: expect.objectContaining({ 3303: 'note-created', 3305: 'notes-expired' }),
      }),
    );
    expect(Object.keys(diagnostics.counters)).toEqual(
      expect.arrayContaining(['corekit.example.notes.created', 'corekit.example.notes.expired']),
    );
    expect(diagnostics.jobs).toContainEqual(
      expect.objectContaining({ id: 'notes.expire', owner: 'notes', intervalMs: 60_000, runOnStartup: true }),
    );
    expect(diagnostics.warnings).toEqual([]);
    const surfaces = (await host.request('/engine/technology-surfaces')).body;
    expect(surfaces).toContainEqual(
      expect.objectContaining({
        id: 'notes',
        sourcePackage: '@corekit/example-pack',
        metadata: expect.objectContaining({ topics: 3, signing: true }),
      }),
    );
    // the second package reads the pack through its typed key
    expect((await host.request('/engine/notes-digest')).body).toEqual({
      total: 1,
      topics: [
        { topic: 'general', notes: 0 },
        { topic: 'invoices', notes: 1 },
        { topic: 'archive', notes: 0 },
      ],
    });
  });

  it('lists the registration warning in diagnostics when no topic is configured', async () => {
    const host = await startNotesHost({ notes: {} });
    const { warnings } = (await host.request('/engine/diagnostics')).body;
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'NOTES_NO_TOPICS', keyPath: 'Engine:Notes:Topics', eventId: 3300 }),
    ]);
    expect(host.logger.records).toContainEqual(
      expect.objectContaining({ level: 'warn', eventId: 3300, code: 'NOTES_NO_TOPICS' }),
    );
  });

  it('never lets the bound signing key into a log record or an answer', async () => {
    const host = await startNotesHost();
    await host.request('/engine/notes/general', { method: 'POST', token: 'writer', json: { text: 'hello' } });
    const answers = await Promise.all(
      ['/engine/snapshot', '/engine/diagnostics', '/engine/technology-surfaces', '/engine/notes/general'].map(
        async (path) => (await host.request(path)).text,
      ),
    );
    await host.host.close();
    const logs = JSON.stringify(host.logger.records);
    expect(logs).not.toContain(testSigningKey);
    for (const answer of answers) expect(answer).not.toContain(testSigningKey);
    // the debug record dumping the bound section shows the field, redacted
    const settings = host.logger.records.find((record) => record.message === 'Notes pack settings');
    expect(settings).toMatchObject({ eventId: 3301, settings: { SigningKey: '***' } });
  });
});
