import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { CoreError, durationSchema, secretString } from '@corekit/abstractions';
import { ConfigurationStore } from './configuration-store';
import { createEngineBuilder } from './engine-builder';
import { manualClock } from './clock';

function contentRoot(files: Record<string, unknown>): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'corekit-config-'));
  for (const [name, content] of Object.entries(files))
    writeFileSync(path.join(directory, name), JSON.stringify(content));
  return directory;
}

function thrown(action: () => unknown): CoreError {
  try {
    action();
  } catch (error) {
    return error as CoreError;
  }
  throw new Error('expected an error');
}

describe('configuration precedence', () => {
  const root = contentRoot({
    'engine.json': { Engine: { Sample: { A: 'json', B: 'json', C: 'json', D: 'json' } } },
    'engine.Production.json': { Engine: { Sample: { B: 'env-file', C: 'env-file', D: 'env-file' } } },
  });

  it('later sources win: engine.json < engine.<env>.json < environment < code', () => {
    const store = new ConfigurationStore({
      contentRoot: root,
      environmentName: 'Production',
      environment: { Engine__Sample__C: 'variable', Engine__Sample__D: 'variable' },
      code: { Engine: { Sample: { D: 'code' } } },
    });
    expect(store.getSection('Engine:Sample')).toEqual({ A: 'json', B: 'env-file', C: 'variable', D: 'code' });
    expect(store.sourceOf('Engine:Sample:D')).toBe('code');
  });

  it('ignores the environment-specific file of another environment', () => {
    const store = new ConfigurationStore({
      contentRoot: root,
      environmentName: 'Development',
      environment: {},
    });
    expect(store.get('Engine:Sample:B')).toBe('json');
  });

  it('picks engine.<NODE_ENV>.json from the environment the builder is given, not from process.env', () => {
    const builder = createEngineBuilder({
      contentRoot: root,
      environment: { NODE_ENV: 'Production' },
      logger: { log: () => undefined },
    });
    expect(builder.configuration.get('Engine:Sample:B')).toBe('env-file');
    const other = createEngineBuilder({
      contentRoot: root,
      environment: {},
      logger: { log: () => undefined },
    });
    expect(other.configuration.get('Engine:Sample:B')).toBe('json');
  });

  it('looks keys up case-insensitively and binds them to the schema casing', () => {
    const store = new ConfigurationStore({
      contentRoot: root,
      environment: { ENGINE__SAMPLE__COUNT: '7', engine__sample__enabled: 'TRUE' },
    });
    expect(store.get('engine:sample:a')).toBe('json');
    const bound = store.bind(
      'Engine:Sample',
      z.object({ A: z.string(), Count: z.number(), Enabled: z.boolean() }),
    );
    expect(bound).toEqual({ A: 'json', Count: 7, Enabled: true });
  });

  it('builds arrays from indexed keys, including environment variables', () => {
    const store = new ConfigurationStore({
      contentRoot: root,
      environment: { Engine__Transports__0: 'RestApi', Engine__Transports__1: 'WebSocket' },
    });
    expect(store.get('Engine:Transports')).toEqual(['RestApi', 'WebSocket']);
  });

  it('rejects a malformed engine.json with the file named', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'corekit-config-'));
    writeFileSync(path.join(directory, 'engine.json'), '{ "Engine": ');
    const error = thrown(() => new ConfigurationStore({ contentRoot: directory, environment: {} }));
    expect(error.code).toBe('CONFIGURATION_FILE_INVALID');
    expect(error.message).toContain('engine.json');
  });
});

describe('configuration validation', () => {
  const schema = z.object({
    Dependencies: z.array(
      z.object({
        Id: z.string(),
        TimeoutSeconds: z.number().int().positive(),
        Password: secretString().optional(),
      }),
    ),
    Delay: durationSchema().optional(),
  });

  it('names the full key path and the bad value', () => {
    const store = new ConfigurationStore({
      contentRoot: tmpdir(),
      environment: {},
      code: { Engine: { Probe: { Dependencies: [{ Id: 'db', TimeoutSeconds: -1 }], Delay: 'soon' } } },
    });
    const error = thrown(() => store.bind('Engine:Probe', schema));
    expect(error.code).toBe('CONFIGURATION_INVALID');
    expect(error.message).toContain('Engine:Probe:Dependencies:0:TimeoutSeconds');
    expect(error.message).toContain('got -1');
    expect(error.message).toContain(
      'Engine:Probe:Delay must be a duration such as "30s", "500ms", "00:00:30" or "PT30S", got "soon"',
    );
  });

  it('rejects a secret still holding a placeholder, naming the variable to set', () => {
    const store = new ConfigurationStore({
      contentRoot: tmpdir(),
      environment: {},
      code: { Engine: { Probe: { Dependencies: [{ Id: 'db', TimeoutSeconds: 2, Password: '<SECRET>' }] } } },
    });
    const error = thrown(() => store.bind('Engine:Probe', schema));
    expect(error.message).toContain(
      'Engine:Probe:Dependencies:0:Password still holds the placeholder <SECRET>',
    );
    expect(error.message).toContain('Engine__Probe__Dependencies__0__Password');
  });

  it('never prints a secret value in a validation error', () => {
    const store = new ConfigurationStore({
      contentRoot: tmpdir(),
      environment: {},
      code: { Engine: { Probe: { Dependencies: [{ Id: 'db', TimeoutSeconds: 2, Password: 12345678 }] } } },
    });
    const error = thrown(() => store.bind('Engine:Probe', schema));
    expect(error.message).toContain('Engine:Probe:Dependencies:0:Password');
    expect(error.message).not.toContain('12345678');
  });

  it('never echoes a rejected value that may carry credentials', () => {
    const store = new ConfigurationStore({
      contentRoot: tmpdir(),
      environment: {},
      code: {
        Engine: {
          Probe: {
            Url: 'amqp://user:hunter2@host:5672',
            ConnectionString: 7,
            Other: 'Host=x;Password=hunter3',
          },
        },
      },
    });
    const error = thrown(() =>
      store.bind(
        'Engine:Probe',
        z.object({ Url: z.string().url().max(5), ConnectionString: z.string(), Other: z.number() }),
      ),
    );
    expect(error.message).toContain('Engine:Probe:Url');
    expect(error.message).toContain('Engine:Probe:ConnectionString');
    expect(error.message).toContain('Engine:Probe:Other');
    expect(error.message).not.toMatch(/hunter2|hunter3|got 7/);
  });

  it('accepts the three duration forms for the failure policy, from the environment', async () => {
    for (const value of ['00:00:30', '30s', 'PT30S']) {
      const clock = manualClock();
      const engine = createEngineBuilder({
        contentRoot: tmpdir(),
        environment: { Engine__FailurePolicy__StartupReadinessDelay: value },
        logger: { log: () => {} },
        clock,
      }).build();
      await engine.start();
      const report = engine.readiness();
      expect(report.activeWindow).toBe('StartupReadinessDelay');
      expect(Date.parse(report.activeWindowEndsAtUtc!) - clock.now()).toBe(30_000);
      await engine.stop();
    }
  });

  it('fails the build on an invalid failure policy with the key path', () => {
    const builder = createEngineBuilder({
      contentRoot: tmpdir(),
      environment: { Engine__FailurePolicy__ManualRestartBackoff: '10' },
      logger: { log: () => {} },
    });
    const error = thrown(() => builder.build());
    expect(error.code).toBe('CONFIGURATION_INVALID');
    expect(error.message).toContain('Engine:FailurePolicy:ManualRestartBackoff must be a duration');
  });
});

describe('the section binder', () => {
  const entry = z.object({
    Id: z.string(),
    Url: z.string().optional(),
    Required: z.boolean().default(true),
    Token: secretString().optional(),
  });
  const section = z.object({ RefreshIntervalSeconds: z.number().default(30), Dependencies: z.array(entry) });

  it('merges code options by Id over configured entries: code wins per field, new Ids appended, keys matched case-insensitively', () => {
    const store = new ConfigurationStore({
      contentRoot: tmpdir(),
      environment: {
        Engine__Kind__RefreshIntervalSeconds: '60',
        Engine__Kind__Dependencies__0__Id: 'a',
        Engine__Kind__Dependencies__0__Url: 'http://a',
        Engine__Kind__Dependencies__0__Required: 'false',
        Engine__Kind__Dependencies__1__Id: 'b',
        Engine__Kind__Dependencies__1__Url: 'http://b',
      },
    });
    const bound = store.bind('Engine:Kind', section, {
      refreshintervalseconds: 9,
      dependencies: [{ id: 'b', url: 'http://b2' }, { Id: 'c' }],
    });
    expect(bound).toEqual({
      RefreshIntervalSeconds: 9,
      Dependencies: [
        { Id: 'a', Url: 'http://a', Required: false },
        { Id: 'b', Url: 'http://b2', Required: true },
        { Id: 'c', Required: true },
      ],
    });
  });

  it('keeps configured entries when code passes none, and replaces lists without Ids', () => {
    const store = new ConfigurationStore({
      contentRoot: tmpdir(),
      environment: {},
      code: { Engine: { Kind: { Dependencies: [{ Id: 'a' }] }, List: { Names: ['x', 'y'] } } },
    });
    expect(store.bind('Engine:Kind', section, { Dependencies: [] }).Dependencies).toEqual([
      { Id: 'a', Required: true },
    ]);
    expect(store.bind('Engine:List', z.object({ Names: z.array(z.string()) }), { Names: ['z'] })).toEqual({
      Names: ['z'],
    });
  });

  it('hands every secretString() value to onSecret, in arrays and nested objects, from every source', () => {
    const secrets: string[] = [];
    const store = new ConfigurationStore({
      contentRoot: tmpdir(),
      environment: {
        Engine__Kind__Dependencies__0__Id: 'a',
        Engine__Kind__Dependencies__0__Token: 'env-token',
      },
      code: { Engine: { Nested: { Inner: { ApiKey: 'nested-key' }, Plain: 'not-secret' } } },
      onSecret: (value) => void secrets.push(value),
    });
    store.bind('Engine:Kind', section, { Dependencies: [{ Id: 'b', Token: 'code-token' }] });
    store.bind('Engine:Nested', z.object({ Inner: z.object({ ApiKey: secretString() }), Plain: z.string() }));
    expect(secrets.sort()).toEqual(['code-token', 'env-token', 'nested-key']);
  });
});

describe('unknown keys', () => {
  const schema = z.object({
    Dependencies: z.array(z.object({ Id: z.string(), Required: z.boolean().default(true) })).default([]),
    Tags: z.record(z.string(), z.string()).default({}),
    Extra: z.object({}).passthrough().optional(),
  });

  function problems(store: ConfigurationStore): string[] {
    const error = thrown(() => store.assertKnownKeys());
    expect(error.code).toBe('CONFIGURATION_INVALID');
    return (error.details as { problems: string[] }).problems;
  }

  it('names each unknown key under Engine: with its source and the closest known key', () => {
    const store = new ConfigurationStore({
      contentRoot: contentRoot({
        'engine.json': { Engine: { Kind: { Dependencies: [{ Id: 'a', Requried: false }] } } },
      }),
      environment: { Engine__Knd__X: '1', Logging__Level: 'debug', PATH: '/bin' },
      code: { Engine: { Kind: { Tags: { any: 'x' }, Extra: { Whatever: { Deep: 1 } } } } },
    });
    store.bind('Engine:Kind', schema, { Dependencie: [] });
    expect(problems(store)).toEqual([
      '`Engine:Kind:Dependencies:0:Requried` is not a known key; did you mean `Required`? (set in engine.json)',
      '`Engine:Knd` is not a known key; did you mean `Kind`? (set in environment)',
      '`Engine:Kind:Dependencie` is not a known key; did you mean `Dependencies`? (set in code)',
    ]);
  });

  it('counts keys read raw with get(), and passes when every key is known', () => {
    const store = new ConfigurationStore({
      contentRoot: tmpdir(),
      environment: { Engine__Transports__0: 'RestApi', Engine__Kind__Dependencies__0__ID: 'a' },
    });
    store.bind('Engine:Kind', schema);
    store.get('Engine:Transports');
    expect(() => store.assertKnownKeys()).not.toThrow();
  });

  it('treats a section listed with getSection as known but checks its children against their own binds', () => {
    const store = new ConfigurationStore({
      contentRoot: tmpdir(),
      environment: { Engine__Profiles__Main__Sise: '3' },
    });
    const names = Object.keys(store.getSection('Engine:Profiles') as object);
    for (const name of names)
      store.bind(`Engine:Profiles:${name}`, z.object({ Size: z.string().optional() }));
    expect(problems(store)).toEqual([
      '`Engine:Profiles:Main:Sise` is not a known key; did you mean `Size`? (set in environment)',
    ]);
  });
});
