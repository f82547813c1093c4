import { CoreError, transportAdapterKey, type TransportAdapter } from '@corekit/abstractions';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { z } from 'zod';
import { beginTransportRegistration, type TransportDescription } from './transport-registration';

const settingsSchema = z.strictObject({ Path: z.string().default('/echo') });

const echo: TransportDescription<z.output<typeof settingsSchema>> = {
  transport: 'Echo',
  packageName: '@corekit/transport-echo',
  functionName: 'addEchoTransport',
  section: { path: 'Engine:Echo', schema: settingsSchema },
  calls: { name: 'corekit.transport.echo.calls', description: 'Echo calls' },
  eventIds: { component: 'Transport: Echo', ranges: [[3990, 3991]], names: { 3990: 'echo-mounted' } },
  displayName: 'Echo transport',
};

function register(builder: ReturnType<typeof createTestEngineBuilder>['builder'], options?: unknown) {
  const registration = beginTransportRegistration(builder, echo, options);
  let mounted = false;
  const adapter: TransportAdapter = {
    name: 'Echo',
    mount: () => void (mounted = true),
    mountedOperations: () => (mounted ? ['b.two', 'a.one'] : []),
  };
  return {
    registration,
    adapter: registration.complete(adapter, () => ({
      mounted,
      metadata: { path: registration.settings.Path },
    })),
  };
}

describe('beginTransportRegistration', () => {
  it('binds the section, names the log category, provides the adapter and describes it as a surface', () => {
    const { builder } = createTestEngineBuilder({ configuration: { Engine: { Echo: { Path: '/e' } } } });
    const { registration, adapter } = register(builder);
    expect(registration.settings).toEqual({ Path: '/e' });
    expect(registration.category).toBe('transport-echo');
    const engine = builder.build();
    expect(engine.resolve(transportAdapterKey('echo'))).toBe(adapter);
    const surface = () => engine.technologySurfaces().find((entry) => entry.id === 'transport-echo');
    expect(surface()).toEqual({
      id: 'transport-echo',
      kind: 'transport',
      displayName: 'Echo transport',
      sourcePackage: '@corekit/transport-echo',
      metadata: { transport: 'Echo', mounted: false, path: '/e', operations: [] },
    });
    adapter.mount({ engine } as never);
    expect(surface()?.metadata).toMatchObject({ mounted: true, operations: ['b.two', 'a.one'] });
  });

  it('registers the event ids and the calls counter', () => {
    const { builder } = createTestEngineBuilder();
    register(builder).registration.calls.add(1, { outcome: 'ok' });
    const diagnostics = builder.build().diagnostics();
    expect(diagnostics.eventIds).toContainEqual(expect.objectContaining({ component: 'Transport: Echo' }));
    expect(Object.keys(diagnostics.counters)).toContain('corekit.transport.echo.calls');
  });

  it('refuses a second registration on one builder with ALREADY_REGISTERED naming the entry and the package', () => {
    const { builder } = createTestEngineBuilder();
    register(builder);
    let refusal: unknown;
    try {
      register(builder);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(CoreError);
    expect(refusal).toMatchObject({
      code: 'ALREADY_REGISTERED',
      message: expect.stringContaining('addEchoTransport (@corekit/transport-echo) was already called'),
    });
  });

  it('fails on an unknown option key, naming it', () => {
    const { builder } = createTestEngineBuilder();
    expect(() => register(builder, { Pathh: '/x' })).toThrow(/Pathh/);
  });
});
