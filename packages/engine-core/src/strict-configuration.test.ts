import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { secretString, type EngineBuilder, type LogRecord } from '@corekit/abstractions';
import { createEngineBuilder } from './engine-builder';

/**
 * The strict-configuration contract at the engine level: a bound secret never reaches a log record, and
 * every key under `Engine:` that no registration bound fails the first start with its path and the closest
 * known key. Probes are stood in for by a small `add<Kind>Health` that binds its section the way probe-kit's
 * defineProbe does (engine-core cannot depend on probe-kit).
 */

const dependencyHealth = 'Engine:Observability:DependencyHealth';

const entrySchema = z.object({
  Id: z.string().min(1),
  Url: z.string().optional(),
  Required: z.boolean().default(true),
  ExpectedStatusCodes: z.array(z.number().int()).optional(),
  Password: secretString().optional(),
});
const probeSectionSchema = z.object({
  RefreshIntervalSeconds: z.number().int().positive().default(30),
  Dependencies: z.array(entrySchema).default([]),
});

function addFakeHealth(kind: string, builder: EngineBuilder, options?: unknown): void {
  const section = builder.configuration.bind(`${dependencyHealth}:${kind}`, probeSectionSchema, options);
  for (const entry of section.Dependencies) {
    builder.addDependencyHealthContributor({
      id: `${kind}-${entry.Id}`,
      displayName: entry.Id,
      required: entry.Required,
      kind,
      check: async () => ({ status: 'Healthy', description: 'ok' }),
    });
  }
}

function contentRoot(engineJson?: unknown): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'corekit-strict-'));
  if (engineJson !== undefined)
    writeFileSync(path.join(directory, 'engine.json'), JSON.stringify(engineJson));
  return directory;
}

function builderWith(options: { engineJson?: unknown; environment?: Record<string, string> }) {
  const records: LogRecord[] = [];
  const builder = createEngineBuilder({
    contentRoot: contentRoot(options.engineJson),
    environment: options.environment ?? {},
    logger: { log: (record) => void records.push(record) },
  });
  return { builder, records };
}

const httpEntry = { Id: 'api', Url: 'http://127.0.0.1:1/health' };

function healthJson(section: Record<string, unknown>): unknown {
  return { Engine: { Observability: { DependencyHealth: section } } };
}

describe('bound secrets', () => {
  it('never appear in log output, when bound outside any probe', () => {
    const { builder, records } = builderWith({ environment: { Engine__Custom__Token: 'tok-3f9a-secret' } });
    const { Token } = builder.configuration.bind('Engine:Custom', z.object({ Token: secretString() }));
    expect(Token).toBe('tok-3f9a-secret');
    builder.logger.log({
      level: 'info',
      eventId: 2000,
      message: `calling upstream with ${Token}`,
      detail: { nested: [Token], error: new Error(`rejected ${Token}`) },
    });
    const output = JSON.stringify(records);
    expect(output).toContain('calling upstream with ***');
    expect(output).not.toContain('tok-3f9a-secret');
  });
});

describe('unknown configuration keys', () => {
  it('let an engine whose keys are all bound start', async () => {
    const { builder } = builderWith({
      engineJson: {
        Engine: {
          FailurePolicy: { StartupReadinessDelay: '0s' },
          Observability: {
            DependencyHealth: {
              TimeoutSeconds: 5,
              Http: { RefreshIntervalSeconds: 60, Dependencies: [httpEntry] },
            },
          },
        },
      },
    });
    addFakeHealth('Http', builder);
    const engine = builder.build();
    await engine.start();
    await engine.stop();
  });

  it.each([
    [
      'a probe section spelled Postgres',
      { engineJson: healthJson({ Postgres: { Dependencies: [{ Id: 'db' }] } }) },
      '`Engine:Observability:DependencyHealth:Postgres` is not a known key; did you mean `PostgreSql`? (set in engine.json)',
    ],
    [
      'Requried in a dependency',
      { engineJson: healthJson({ Http: { Dependencies: [{ ...httpEntry, Requried: false }] } }) },
      '`Engine:Observability:DependencyHealth:Http:Dependencies:0:Requried` is not a known key; did you mean `Required`?',
    ],
    [
      'ExpectedStatusCode for ExpectedStatusCodes',
      { engineJson: healthJson({ Http: { Dependencies: [{ ...httpEntry, ExpectedStatusCode: [418] }] } }) },
      '`Engine:Observability:DependencyHealth:Http:Dependencies:0:ExpectedStatusCode` is not a known key; did you mean `ExpectedStatusCodes`?',
    ],
    [
      'RefreshIntervalSecs',
      { engineJson: healthJson({ Http: { RefreshIntervalSecs: 10, Dependencies: [httpEntry] } }) },
      '`Engine:Observability:DependencyHealth:Http:RefreshIntervalSecs` is not a known key; did you mean `RefreshIntervalSeconds`?',
    ],
    [
      'an environment variable misspelling',
      {
        environment: {
          Engine__Observability__DependencyHealth__Http__Dependencies__0__Id: 'api',
          Engine__Observability__DependencyHealth__Http__Dependencies__0__Requried: 'false',
        },
      },
      '`Engine:Observability:DependencyHealth:Http:Dependencies:0:Requried` is not a known key; did you mean `Required`? (set in environment)',
    ],
    [
      'an engine-level key',
      { environment: { Engine__FailurePolicy__StartupReadinesDelay: '5s' } },
      '`Engine:FailurePolicy:StartupReadinesDelay` is not a known key; did you mean `StartupReadinessDelay`? (set in environment)',
    ],
    [
      'an engine-level section',
      { engineJson: { Engine: { RuntimeStorry: { MaxEntries: 10 } } } },
      '`Engine:RuntimeStorry` is not a known key; did you mean `RuntimeStory`? (set in engine.json)',
    ],
  ])('fail the first start: %s', async (_name, options, problem) => {
    const { builder } = builderWith(options);
    addFakeHealth('Http', builder);
    const engine = builder.build();
    await expect(engine.start()).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      message: expect.stringContaining(problem),
      details: { problems: expect.arrayContaining([expect.stringContaining(problem)]) },
    });
  });

  it.each([
    ['Redis', 'addRedisHealth(builder) was not called: add it (from @corekit/probe-redis)'],
    ['PostgreSql', 'addPostgresHealth(builder) was not called: add it (from @corekit/probe-postgres)'],
    ['sqlserver', 'addMssqlHealth(builder) was not called: add it (from @corekit/probe-mssql)'],
  ])(
    'name the missing add<Kind>Health call for a configured %s section whose probe is not registered',
    (section, call) => {
      const { builder } = builderWith({
        environment: { [`Engine__Observability__DependencyHealth__${section}__Dependencies__0__Id`]: 'x' },
      });
      addFakeHealth('Http', builder);
      const engine = builder.build();
      let message = '';
      try {
        engine.checkConfiguration();
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain(`\`Engine:Observability:DependencyHealth:${section}\` configures the`);
      expect(message).toContain(call);
      expect(message).not.toContain('did you mean');
    },
  );

  describe('in a pack section with nested objects and lists of objects', () => {
    const packSchema = z.object({
      Channels: z
        .array(
          z.object({
            Id: z.string(),
            Retry: z.object({ MaxAttempts: z.number().int().default(3) }).default({ MaxAttempts: 3 }),
          }),
        )
        .default([]),
      Delivery: z
        .object({ Batching: z.object({ MaxItems: z.number().int().default(10) }).default({ MaxItems: 10 }) })
        .default({ Batching: { MaxItems: 10 } }),
      Enabled: z.boolean().default(true),
    });

    /** The one problem the first start reports for `environment`, with Engine:Pack bound to packSchema. */
    async function problemFor(environment: Record<string, string>): Promise<string> {
      const { builder } = builderWith({ environment });
      builder.configuration.bind('Engine:Pack', packSchema);
      const failure = await builder
        .build()
        .start()
        .then(
          () => undefined,
          (error: { details?: { problems?: string[] } }) => error,
        );
      expect(failure?.details?.problems).toHaveLength(1);
      return failure!.details!.problems![0];
    }

    it.each([
      [
        'a misspelled list name',
        { Engine__Pack__Chanels__0__Id: 'orders' },
        '`Engine:Pack:Chanels` is not a known key; did you mean `Channels`? (set in environment)',
      ],
      [
        'a misspelled key inside a list item',
        { Engine__Pack__Channels__0__Id: 'orders', Engine__Pack__Channels__0__Idd: 'x' },
        '`Engine:Pack:Channels:0:Idd` is not a known key; did you mean `Id`? (set in environment)',
      ],
      [
        'a misspelled key in an object inside a list item',
        { Engine__Pack__Channels__0__Id: 'orders', Engine__Pack__Channels__0__Retry__MaxAtempts: '2' },
        '`Engine:Pack:Channels:0:Retry:MaxAtempts` is not a known key; did you mean `MaxAttempts`? (set in environment)',
      ],
      [
        'a misspelled key two objects deep',
        { Engine__Pack__Delivery__Batching__MaxItem: '5' },
        '`Engine:Pack:Delivery:Batching:MaxItem` is not a known key; did you mean `MaxItems`? (set in environment)',
      ],
      [
        'a misspelled nested object',
        { Engine__Pack__Delivery__Batchin__MaxItems: '5' },
        '`Engine:Pack:Delivery:Batchin` is not a known key; did you mean `Batching`? (set in environment)',
      ],
      [
        'a key close to none of the section',
        { Engine__Pack__Topics__0__Id: 'orders' },
        '`Engine:Pack:Topics` is not a known key; none of the keys of `Engine:Pack` is close: `Channels`, `Delivery`, `Enabled` (set in environment)',
      ],
    ])('name the closest key for %s', async (_name, environment, problem) => {
      expect(await problemFor(environment)).toBe(problem);
    });

    it("name the closest key for a strict schema's unrecognized key inside a list item", () => {
      const { builder } = builderWith({ environment: { Engine__Strict__Items__0__Nmae: 'x' } });
      const strict = z.strictObject({
        Items: z.array(z.strictObject({ Name: z.string().optional(), Size: z.number().optional() })),
      });
      expect(() => builder.configuration.bind('Engine:Strict', strict)).toThrow(
        expect.objectContaining({
          details: expect.objectContaining({
            problems: ['`Engine:Strict:Items:0:Nmae` is not a known key; did you mean `Name`?'],
          }),
        }),
      );
    });

    it("list a strict object's keys for an unrecognized key close to none of them", () => {
      const { builder } = builderWith({ environment: { Engine__Strict__Items__0__Weight: '3' } });
      const strict = z.strictObject({
        Items: z.array(z.strictObject({ Name: z.string().optional(), Size: z.number().optional() })),
      });
      expect(() => builder.configuration.bind('Engine:Strict', strict)).toThrow(
        expect.objectContaining({
          details: expect.objectContaining({
            problems: [
              '`Engine:Strict:Items:0:Weight` is not a known key; none of the keys of `Engine:Strict:Items:0` is close: `Name`, `Size`',
            ],
          }),
        }),
      );
    });
  });

  it("give a strict schema's unrecognized key the closest known key, like every other unknown key", () => {
    const { builder } = builderWith({ environment: { Engine__Strict__Inner__Colour: 'red' } });
    const strict = z.strictObject({
      Inner: z.strictObject({ Color: z.string().optional(), Size: z.number().optional() }).optional(),
    });
    expect(() => builder.configuration.bind('Engine:Strict', strict)).toThrow(
      expect.objectContaining({
        code: 'CONFIGURATION_INVALID',
        details: expect.objectContaining({
          problems: ['`Engine:Strict:Inner:Colour` is not a known key; did you mean `Color`?'],
        }),
      }),
    );
  });

  it('checkConfiguration() refuses an unknown key before the start, so a host can check it before it listens', async () => {
    const { builder } = builderWith({
      environment: { Engine__FailurePolicy__StartupReadinessDelays: '00:00:05' },
    });
    const engine = builder.build();
    expect(() => engine.checkConfiguration()).toThrow(
      expect.objectContaining({
        code: 'CONFIGURATION_INVALID',
        message: expect.stringContaining(
          '`Engine:FailurePolicy:StartupReadinessDelays` is not a known key; did you mean `StartupReadinessDelay`?',
        ),
      }),
    );
    // The refusal is a start failure that no start cures: Failed, and a later start() names it.
    expect(engine.state).toBe('Failed');
    await expect(engine.start()).rejects.toMatchObject({
      code: 'ENGINE_NOT_RESTARTABLE',
      message: expect.stringContaining('CONFIGURATION_INVALID'),
    });
  });

  it('fail the first start on a misspelled key in code options, naming code as the source', async () => {
    const { builder } = builderWith({});
    addFakeHealth('Http', builder, { Dependencies: [{ ...httpEntry, Requried: false }] });
    await expect(builder.build().start()).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      message: expect.stringContaining(
        '`Engine:Observability:DependencyHealth:Http:Dependencies:0:Requried` is not a known key; did you mean `Required`? (set in code)',
      ),
    });
  });

  it('report a key under Engine:Web only while no host has bound that section', async () => {
    const environment = { Engine__Web__Port: '8080' };
    const unbound = builderWith({ environment }).builder.build();
    await expect(unbound.start()).rejects.toMatchObject({
      message: expect.stringContaining('`Engine:Web` is not a known key'),
    });

    const bound = builderWith({ environment }).builder.build();
    bound.configuration.bind('Engine:Web', z.object({ Port: z.coerce.number() }));
    await bound.start();
    await bound.stop();
  });

  it('ignore environment variables outside Engine__', async () => {
    const { builder } = builderWith({ environment: { Logging__Levle: 'debug', HOME__X: '1' } });
    const engine = builder.build();
    await engine.start();
    await engine.stop();
  });
});
