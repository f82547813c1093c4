import { expectSecondCallRefused } from '@corekit/testing/registration-refusal';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { z } from 'zod';
import { addObservabilityPack, defineObservabilityPack } from './add-observability-pack';
import { endpointField, otlpPackShape } from './observability-pack-options';
import { otlpPlatformExporters } from './otlp-platform-exporters';

const schema = z.object({ ...otlpPackShape(), Endpoint: endpointField('https://otlp.example') }).strict();
const definition = {
  id: 3199,
  platform: 'Example',
  schema,
  contribution: (settings: z.output<typeof schema>) => otlpPlatformExporters(settings, {}),
};
const addExampleObservability = defineObservabilityPack<z.output<typeof schema>, z.input<typeof schema>>({
  ...definition,
  packageName: '@corekit/observability-example',
  entry: 'addExampleObservability',
  section: 'Engine:Observability:Example',
});

describe('defineObservabilityPack', () => {
  it('returns the add function: it binds the section by its full path, code options over configuration', () => {
    const { builder } = createTestEngineBuilder({
      configuration: { Engine: { Observability: { Example: { Endpoint: 'https://configured.example' } } } },
    });
    expect(addExampleObservability(builder, { Enabled: false })).toMatchObject({
      Enabled: false,
      Endpoint: 'https://configured.example',
    });
  });

  it('refuses a second call with ALREADY_REGISTERED naming the entry and the package', () => {
    const { builder } = createTestEngineBuilder();
    addExampleObservability(builder, { Enabled: false });
    expectSecondCallRefused(
      () => addExampleObservability(builder, { Enabled: false }),
      'addExampleObservability',
      '@corekit/observability-example',
    );
  });

  it('counts a call of the deprecated addObservabilityPack for the same section as the first call', () => {
    const { builder } = createTestEngineBuilder();
    addObservabilityPack(builder, { ...definition, section: 'Example' }, { Enabled: false });
    expect(() => addExampleObservability(builder, { Enabled: false })).toThrow(
      expect.objectContaining({ code: 'ALREADY_REGISTERED' }),
    );
  });
});
