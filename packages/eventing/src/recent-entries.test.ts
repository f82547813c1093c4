import { RecentEntries } from './recent-entries';

describe('RecentEntries', () => {
  it('keeps the newest entries by last write, oldest first, dropping the oldest past the capacity', () => {
    const entries = new RecentEntries<number>(3);
    for (const key of ['a', 'b', 'c']) entries.set(key, key.charCodeAt(0));
    entries.set('a', 1); // a is now the newest
    entries.set('d', 4); // drops b, the oldest
    expect(entries.values()).toEqual([99, 1, 4]);
    expect([entries.get('b'), entries.get('c'), entries.size]).toEqual([undefined, 99, 3]);
  });

  it('stays bounded when the same keys are written over and over without reaching the capacity', () => {
    const entries = new RecentEntries<number>(1000);
    for (let write = 0; write < 100_000; write++) entries.set(`k${write % 10}`, write);
    expect(entries.size).toBe(10);
    expect(entries.values()).toEqual([
      99_990, 99_991, 99_992, 99_993, 99_994, 99_995, 99_996, 99_997, 99_998, 99_999,
    ]);
    expect(entries.queuedWrites).toBeGreaterThanOrEqual(entries.size);
    expect(entries.queuedWrites).toBeLessThanOrEqual(4 * 1000 + 1024);
  });

  it('matches a plain map with drop-oldest on a long random sequence of writes', () => {
    const capacity = 50;
    const entries = new RecentEntries<number>(capacity);
    const reference = new Map<string, number>();
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let write = 0; write < 20_000; write++) {
      const key = `k${Math.floor(random() * 120)}`;
      entries.set(key, write);
      reference.delete(key);
      reference.set(key, write);
      while (reference.size > capacity) reference.delete(reference.keys().next().value!);
    }
    expect(entries.values()).toEqual([...reference.values()]);
  });
});
