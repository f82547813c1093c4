import { durabilityOrNone, storePostureOf } from './store-posture';

describe('storePostureOf', () => {
  it.each([
    [{ kind: 'memory', durable: false, shared: false }, 'process-memory', 'process-local'],
    [{ kind: 'file', durable: true, shared: false }, 'durable-local', 'node-local'],
    [{ kind: 'postgresql', durable: true, shared: true }, 'durable-shared', 'shared'],
    [{ kind: 'redis', durable: true, shared: true }, 'durable-shared', 'shared'],
    [{ kind: 'cache', durable: false, shared: true }, 'shared-memory', 'shared'],
  ])('maps %o to durability %s and scope %s', (traits, durability, scope) => {
    expect(storePostureOf(traits)).toEqual({ ...traits, durability, scope });
  });
});

describe('durabilityOrNone', () => {
  it('is none for a provider whose records do not survive a restart, else the durability', () => {
    expect(durabilityOrNone(storePostureOf({ kind: 'memory', durable: false, shared: false }))).toBe('none');
    expect(durabilityOrNone(storePostureOf({ kind: 'file', durable: true, shared: false }))).toBe(
      'durable-local',
    );
    expect(durabilityOrNone(storePostureOf({ kind: 'redis', durable: true, shared: true }))).toBe(
      'durable-shared',
    );
  });
});
