import { createEngineBuilder, createMemoryLogger } from './index';

// The engine's one service identity (`builder.service`, the manifest's `service`): configuration first, then the
// OpenTelemetry environment variables, then the default; presence, alerts and telemetry all read it.

function builderWith(environment: Record<string, string>, service?: Record<string, string>) {
  return createEngineBuilder({
    contentRoot: '/nonexistent',
    environment,
    logger: createMemoryLogger(),
    ...(service ? { configuration: { Engine: { Service: service } } } : {}),
  });
}

describe('the service identity', () => {
  it.each([
    [{}, undefined, { name: 'corekit-host', version: null, source: 'default' }],
    [
      { OTEL_RESOURCE_ATTRIBUTES: 'service.name=billing%20api,service.version=2.0.1' },
      undefined,
      { name: 'billing api', version: '2.0.1', source: 'OTEL_RESOURCE_ATTRIBUTES' },
    ],
    [
      { OTEL_SERVICE_NAME: 'orders', OTEL_RESOURCE_ATTRIBUTES: 'service.name=billing' },
      undefined,
      { name: 'orders', version: null, source: 'OTEL_SERVICE_NAME' },
    ],
    [
      { OTEL_SERVICE_NAME: 'orders', Engine__Service__Version: '3.1.0' },
      { Name: 'orders-api' },
      { name: 'orders-api', version: '3.1.0', source: 'Engine:Service' },
    ],
    [
      { OTEL_SERVICE_NAME: '  ' },
      { Name: 'orders-api' },
      { name: 'orders-api', version: null, source: 'Engine:Service' },
    ],
  ])('from %j and Engine:Service %j is %j', (environment, service, expected) => {
    expect(builderWith(environment, service).service).toEqual(expected);
  });

  it('is in the manifest with the instance id', () => {
    const builder = builderWith({}, { Name: 'orders-api', Version: '3.1.0' });
    expect(builder.build().manifest().service).toEqual({
      name: 'orders-api',
      version: '3.1.0',
      source: 'Engine:Service',
      instanceId: builder.instanceId,
    });
  });

  it('refuses an unknown key of Engine:Service with the closest one when the engine starts', async () => {
    const engine = builderWith({ Engine__Service__Nmae: 'orders' }).build();
    await expect(engine.start()).rejects.toThrow(
      /`Engine:Service:Nmae` is not a known key; did you mean `Name`\?/,
    );
  });
});
