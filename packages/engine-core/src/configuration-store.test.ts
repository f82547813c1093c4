import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { CoreError, secretString } from '@corekit/abstractions';
import { ConfigurationStore } from './configuration-store';
import { durationSchema } from './duration';
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
      'Engine:Probe:Delay must be a duration such as "30s", "00:00:30" or "PT30S", got "soon"',
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
