import * as abstractions from '@corekit/abstractions';
import * as probeKit from './index';

describe('probe-kit redaction helpers', () => {
  it('are the abstractions ones, so probes and the engine logger redact alike', () => {
    for (const name of [
      'redactText',
      'redactValue',
      'secretsInConnectionString',
      'stripUrlCredentials',
    ] as const)
      expect(probeKit[name]).toBe(abstractions[name]);
    expect(probeKit.redactText('x https://u:p@h y', ['x'])).toBe('*** https://***@h y');
  });
});
