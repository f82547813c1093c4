import { CoreError } from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addNotesDigest, addNotesPack, notesKey } from './index';

function builder(configuration?: Record<string, unknown>) {
  return createEngineBuilder({
    environment: {},
    logger: createMemoryLogger(),
    contentRoot: __dirname,
    configuration,
  });
}

function codeOf(action: () => unknown): { code: string; message: string } {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(CoreError);
    return { code: (error as CoreError).code, message: (error as CoreError).message };
  }
  throw new Error('expected a CoreError');
}

describe('addNotesPack registration', () => {
  it('fails the build when a topic names a module that is not registered (the build hook)', () => {
    const target = builder();
    target.addModule({ id: 'billing', version: '1.0.0' });
    addNotesPack(target, {
      Topics: [
        { Id: 'ok', Module: 'billing' },
        { Id: 'leads', Module: 'crm' },
      ],
    });
    const failure = codeOf(() => target.build());
    expect(failure.code).toBe('ENGINE_REGISTRATION_INVALID');
    expect(failure.message).toContain(
      'notes: Engine:Notes:Topics:1:Module names module "crm", which is not registered',
    );
    expect(failure.message).not.toContain('Topics:0');
  });

  it('refuses an unknown key at start naming its path and the closest known key, from code or configuration', async () => {
    const fromCode = builder();
    addNotesPack(fromCode, { Topic: [] } as never);
    await expect(fromCode.build().start()).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      message: expect.stringMatching(/`Engine:Notes:Topic` is not a known key; did you mean `Topics`/),
    });
    const fromConfiguration = builder({ Engine: { Notes: { Retenton: '1d' } } });
    addNotesPack(fromConfiguration);
    await expect(fromConfiguration.build().start()).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      message: expect.stringMatching(/`Engine:Notes:Retenton` is not a known key; did you mean `Retention`/),
    });
  });

  it('refuses a duration without a unit when it is bound', () => {
    const failure = codeOf(() => addNotesPack(builder({ Engine: { Notes: { Retention: 3600 } } })));
    expect(failure.code).toBe('CONFIGURATION_INVALID');
    expect(failure.message).toContain('Engine:Notes:Retention');
  });

  it('refuses a second call and a digest registered without the pack', () => {
    const target = builder();
    addNotesPack(target);
    expect(codeOf(() => addNotesPack(target)).code).toBe('ALREADY_REGISTERED');
    expect(codeOf(() => addNotesDigest(builder())).code).toBe('NOTES_DIGEST_NEEDS_NOTES');
  });

  it('provides its reader under the typed key and answers in-process invocations once started', async () => {
    const target = builder();
    const reader = addNotesPack(target, { Topics: [{ Id: 'general' }] });
    expect(target.resolve(notesKey)).toBe(reader);
    const engine = target.build();
    await expect(
      engine.operations.invoke('notes.list', { params: { topic: 'general' } }),
    ).rejects.toMatchObject({
      kind: 'unavailable',
    });
    await engine.start();
    try {
      const created = await engine.operations.invoke('notes.create', {
        params: { topic: 'general' },
        body: { text: 'in process' },
      });
      expect(created.status).toBe(201);
      expect(engine.resolve(notesKey)).toBe(reader);
      expect((await reader.list('general')).map((note) => note.text)).toEqual(['in process']);
      expect((created.body as { signature: unknown }).signature).toBeNull();
    } finally {
      await engine.stop();
    }
  });
});
