import { hostname } from 'node:os';
import { CoreEngineBuilder } from './engine-builder';

describe('builder.instanceId', () => {
  it('names host and process, and differs for every builder (a second engine or a restart is another instance)', () => {
    const first = new CoreEngineBuilder({ configuration: {}, environment: {} });
    const second = new CoreEngineBuilder({ configuration: {}, environment: {} });
    expect(first.instanceId.startsWith(`${hostname()}:${process.pid}:`)).toBe(true);
    expect(second.instanceId).not.toBe(first.instanceId);
    expect(first.instanceId).toBe(first.instanceId);
  });

  it('is the one the builder options give', () => {
    expect(
      new CoreEngineBuilder({ configuration: {}, environment: {}, instanceId: 'replica-a' }).instanceId,
    ).toBe('replica-a');
  });
});
