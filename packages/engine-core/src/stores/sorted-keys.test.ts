import { SortedKeys } from './sorted-keys';

/** A small deterministic generator, so a failure reproduces. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('SortedKeys', () => {
  it('matches a sorted array through thousands of random adds and deletes (chunks split and empty)', () => {
    const next = random(7);
    const reference = new Set<string>();
    const keys = SortedKeys.of([]);
    for (let step = 0; step < 20_000; step += 1) {
      const key = `k${Math.floor(next() * 3000)
        .toString()
        .padStart(4, '0')}`;
      if (reference.has(key) && next() < 0.6) {
        reference.delete(key);
        keys.delete(key);
      } else if (!reference.has(key)) {
        reference.add(key);
        keys.add(key);
      }
      if (step % 997 === 0) {
        const start = `k${Math.floor(next() * 3000)}`;
        const expected = [...reference].sort().filter((candidate) => candidate >= start);
        expect([...keys.from(start)]).toEqual(expected);
      }
    }
    expect([...keys.from('')]).toEqual([...reference].sort());
  });

  it('starts from the first key not below the start, and ignores deleting an absent key', () => {
    const keys = SortedKeys.of(['due:2', 'message:1', 'due:1', 'a']);
    keys.delete('zzz');
    keys.delete('due:0');
    expect([...keys.from('due:')]).toEqual(['due:1', 'due:2', 'message:1']);
    expect([...keys.from('n')]).toEqual([]);
    keys.add('b');
    expect([...keys.from('')]).toEqual(['a', 'b', 'due:1', 'due:2', 'message:1']);
  });

  it('clones independently', () => {
    const keys = SortedKeys.of(['a', 'c']);
    const copy = keys.clone();
    copy.add('b');
    keys.delete('a');
    expect([...keys.from('')]).toEqual(['c']);
    expect([...copy.from('')]).toEqual(['a', 'b', 'c']);
  });

  it('keeps order when keys arrive in ascending order (appends) and leave from the front (a queue)', () => {
    const keys = SortedKeys.of([]);
    for (let index = 0; index < 5000; index += 1) keys.add(`q${index.toString().padStart(5, '0')}`);
    for (let index = 0; index < 4990; index += 1) keys.delete(`q${index.toString().padStart(5, '0')}`);
    expect([...keys.from('q')]).toEqual(
      Array.from({ length: 10 }, (_, index) => `q${(4990 + index).toString().padStart(5, '0')}`),
    );
  });
});
