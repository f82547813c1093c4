import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { secretString, type LogRecord } from '@corekit/abstractions';
import { createEngineBuilder } from '@corekit/engine-core';
import { defineProbe, type ProbeContext } from './define-probe';
import { healthy, unhealthy } from './probe-results';

const contentRoot = mkdtempSync(path.join(os.tmpdir(), 'probe-kit-'));
const calls: Array<{ entry: Record<string, unknown>; context: ProbeContext }> = [];
let behaviour: (entry: Record<string, unknown>) => Promise<ReturnType<typeof healthy>> = async () =>
  healthy('ok');

const addMemcachedLikeHealth = defineProbe({
  kind: 'Memcached',
  entryShape: {
    Endpoint: z.string().optional(),
    Token: secretString().optional(),
    Header: z.string().optional(),
  },
  validateEntry(entry, issue) {
    if (!entry.Endpoint) issue('Endpoint', 'is required: host:port of the cache');
  },
  describeTarget: (entry) => `cache at ${entry.Endpoint}`,
  secretValues: (entry) => (entry.Header ? [entry.Header.replace(/^Key /, '')] : []),
  async check(entry, context) {
    calls.push({ entry: { ...entry }, context });
    return behaviour(entry);
  },
});

function build(
  options: Parameters<typeof addMemcachedLikeHealth>[1],
  environment: Record<string, string> = {},
) {
  const records: LogRecord[] = [];
  const builder = createEngineBuilder({
    contentRoot,
    environment,
    logger: { log: (record) => void records.push(record) },
  });
  addMemcachedLikeHealth(builder, options);
  return { builder, records, engine: builder.build() };
}

describe('defineProbe', () => {
  beforeEach(() => {
    calls.length = 0;
    behaviour = async () => healthy('ok');
  });

  it('registers one contributor per entry with the common defaults, and passes entry, timeout and key path to the check', async () => {
    const { engine } = build({
      Dependencies: [
        { Id: 'cache-a', Endpoint: 'a:11211' },
        { Id: 'cache-b', Endpoint: 'b:11211', TimeoutSeconds: 2, Required: false, DisplayName: 'Cache B' },
      ],
    });
    await engine.refreshDependencies();
    expect(
      engine
        .dependencies()
        .map(({ id, displayName, required, timeoutSeconds, refreshIntervalSeconds, kind }) => ({
          id,
          displayName,
          required,
          timeoutSeconds,
          refreshIntervalSeconds,
          kind,
        })),
    ).toEqual([
      {
        id: 'cache-a',
        displayName: 'cache-a',
        required: true,
        timeoutSeconds: 5,
        refreshIntervalSeconds: 30,
        kind: 'Memcached',
      },
      {
        id: 'cache-b',
        displayName: 'Cache B',
        required: false,
        timeoutSeconds: 2,
        refreshIntervalSeconds: 30,
        kind: 'Memcached',
      },
    ]);
    const second = calls.find((call) => call.entry.Id === 'cache-b')!;
    expect(second.context.timeoutMs).toBe(2000);
    expect(second.context.entryPath).toBe('Engine:Observability:DependencyHealth:Memcached:Dependencies:1');
    expect(second.context.signal).toBeInstanceOf(AbortSignal);
    expect(engine.dependencies()[0].data).toEqual({ target: 'cache at a:11211' });
  });

  it('logs the kind event ids from probeEventIds on status changes', async () => {
    const { engine, records } = build({ Dependencies: [{ Id: 'cache', Endpoint: 'a:1' }] });
    await engine.refreshDependencies();
    behaviour = async () => unhealthy('DOWN', 'down');
    await engine.refreshDependencies();
    expect(
      records
        .filter((record) => record.eventId === 3140 || record.eventId === 3141)
        .map((record) => record.eventId),
    ).toEqual([3140, 3141]);
  });

  it('turns a thrown error into an Unhealthy result through describeError', async () => {
    behaviour = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:11211'), {
        code: 'ECONNREFUSED',
        address: '127.0.0.1',
        port: 11211,
      });
    };
    const { engine } = build({ Dependencies: [{ Id: 'cache', Endpoint: 'a:1' }] });
    await engine.refreshDependencies();
    expect(engine.dependencies()[0]).toMatchObject({
      status: 'Unhealthy',
      error: {
        code: 'ECONNREFUSED',
        message: expect.stringContaining('Connection refused by 127.0.0.1:11211'),
      },
    });
  });

  it('scrubs secretString values, URL passwords and secretValues from results and log records', async () => {
    behaviour = async (entry) =>
      unhealthy('AUTH', `refused ${entry.Token} for ${entry.Endpoint} with ${entry.Header}`, {
        echoed: String(entry.Token),
      });
    const { engine, records, builder } = build({
      Dependencies: [
        {
          Id: 'cache',
          Endpoint: 'http://u:url-pass-1@a:1',
          Token: 'token-value-2',
          Header: 'Key header-secret-3',
        },
      ],
    });
    await engine.refreshDependencies();
    builder.logger.log({ level: 'info', eventId: 3140, message: 'token-value-2 url-pass-1 header-secret-3' });
    const text = JSON.stringify([engine.dependencies(), engine.snapshot(), records]);
    for (const secret of ['token-value-2', 'url-pass-1', 'header-secret-3'])
      expect(text).not.toContain(secret);
    expect(engine.dependencies()[0].error?.message).toBe('refused *** for http://***@a:1 with Key ***');
  });

  it('reads the section from environment variables and merges code options by Id (code wins, new Ids appended)', async () => {
    const prefix = 'Engine__Observability__DependencyHealth__Memcached__';
    const { engine } = build(
      {
        RefreshIntervalSeconds: 9,
        Dependencies: [
          { Id: 'from-env', TimeoutSeconds: 3 },
          { Id: 'from-code', Endpoint: 'c:1' },
        ],
      },
      {
        [`${prefix}RefreshIntervalSeconds`]: '60',
        [`${prefix}Dependencies__0__Id`]: 'from-env',
        [`${prefix}Dependencies__0__Endpoint`]: 'e:1',
        [`${prefix}Dependencies__0__Required`]: 'false',
      },
    );
    await engine.refreshDependencies();
    expect(
      engine
        .dependencies()
        .map(({ id, required, timeoutSeconds, refreshIntervalSeconds }) => [
          id,
          required,
          timeoutSeconds,
          refreshIntervalSeconds,
        ]),
    ).toEqual([
      ['from-env', false, 3, 9],
      ['from-code', true, 5, 9],
    ]);
    expect(calls.map((call) => call.entry.Endpoint).sort()).toEqual(['c:1', 'e:1']);
  });

  it.each([
    [
      { Dependencies: [{ Id: 'x' }] },
      'Engine:Observability:DependencyHealth:Memcached:Dependencies:0:Endpoint is required: host:port of the cache',
    ],
    [
      { Dependencies: [{ Id: 'x', Endpoint: 'a:1', TimeoutSeconds: -1 }] },
      'Engine:Observability:DependencyHealth:Memcached:Dependencies:0:TimeoutSeconds must be a positive integer, got -1',
    ],
    [
      { RefreshIntervalSeconds: 1.5, Dependencies: [] },
      'Engine:Observability:DependencyHealth:Memcached:RefreshIntervalSeconds must be a positive integer, got 1.5',
    ],
    [
      {
        Dependencies: [
          { Id: 'x', Endpoint: 'a:1' },
          { Id: 'x', Endpoint: 'b:1' },
        ],
      },
      'Engine:Observability:DependencyHealth:Memcached:Dependencies:1:Id duplicates the Id "x" of Dependencies:0',
    ],
    [
      { Dependencies: [{ Id: 'x', Endpoint: 'a:1', Token: '<CACHE_TOKEN>' }] },
      'Engine:Observability:DependencyHealth:Memcached:Dependencies:0:Token still holds the placeholder',
    ],
    [
      { Dependencies: [{ Endpoint: 'a:1' }] },
      'Engine:Observability:DependencyHealth:Memcached:Dependencies:0:Id is required',
    ],
  ])('fails at registration with CONFIGURATION_INVALID and the full key path (%j)', (options, message) => {
    expect(() => build(options as never)).toThrow(
      expect.objectContaining({ code: 'CONFIGURATION_INVALID', message: expect.stringContaining(message) }),
    );
  });

  it('does not register an Id of the kind twice when called again', async () => {
    const records: LogRecord[] = [];
    const builder = createEngineBuilder({
      contentRoot,
      environment: {},
      logger: { log: (record) => void records.push(record) },
    });
    addMemcachedLikeHealth(builder, { Dependencies: [{ Id: 'cache', Endpoint: 'a:1' }] });
    addMemcachedLikeHealth(builder, {
      Dependencies: [
        { Id: 'cache', Endpoint: 'a:1' },
        { Id: 'other', Endpoint: 'b:1' },
      ],
    });
    expect(
      builder
        .build()
        .dependencies()
        .map((entry) => entry.id),
    ).toEqual(['cache', 'other']);
  });
});

describe('defineProbe through the engine binder', () => {
  function builderWith(environment: Record<string, string>) {
    const records: LogRecord[] = [];
    const builder = createEngineBuilder({
      contentRoot,
      environment,
      logger: { log: (record) => void records.push(record) },
    });
    return { builder, records };
  }

  it('warns PROBE_NO_DEPENDENCIES, listed in diagnostics, when the section has no dependency', () => {
    const { builder, records } = builderWith({});
    addMemcachedLikeHealth(builder);
    const warning = {
      code: 'PROBE_NO_DEPENDENCIES',
      keyPath: 'Engine:Observability:DependencyHealth:Memcached:Dependencies',
      eventId: 3140,
    };
    expect(builder.build().diagnostics().warnings).toEqual([expect.objectContaining(warning)]);
    expect(records).toContainEqual(expect.objectContaining({ level: 'warn', eventId: 3140 }));
  });

  it.each([
    [
      { Engine__Observability__DependencyHealth__Memcached__Dependencies__0__Requried: 'false' },
      '`Engine:Observability:DependencyHealth:Memcached:Dependencies:0:Requried` is not a known key; did you mean `Required`? (set in environment)',
    ],
    [
      { Engine__Observability__DependencyHealth__Memcached__RefreshIntervalSecs: '10' },
      '`Engine:Observability:DependencyHealth:Memcached:RefreshIntervalSecs` is not a known key; did you mean `RefreshIntervalSeconds`?',
    ],
    [
      { Engine__Observability__DependencyHealth__Memcache__Dependencies__0__Id: 'x' },
      '`Engine:Observability:DependencyHealth:Memcache` is not a known key; did you mean `Memcached`?',
    ],
  ])('refuses a misspelled key when the engine starts (%j)', async (environment, problem) => {
    const { builder } = builderWith({
      Engine__Observability__DependencyHealth__Memcached__Dependencies__0__Id: 'cache',
      Engine__Observability__DependencyHealth__Memcached__Dependencies__0__Endpoint: 'a:1',
      ...environment,
    });
    addMemcachedLikeHealth(builder);
    await expect(builder.build().start()).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      message: expect.stringContaining(problem),
    });
  });
});

describe('defineProbe and the pack contract specification', () => {
  it('a probe registration declares @corekit/probe-kit at the specification it implements (the manifest lists it)', () => {
    const { engine } = build({ Dependencies: [{ Id: 'cache-spec', Endpoint: 'a:11211' }] });
    expect(engine.manifest().packs).toEqual([{ packageName: '@corekit/probe-kit', specificationVersion: 1 }]);
  });
});
