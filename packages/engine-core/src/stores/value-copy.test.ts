import { copyValue } from './value-copy';

describe('copyValue', () => {
  it('copies plain data deeply, equal to structuredClone and sharing nothing', () => {
    const value = { a: 1, b: 'x', c: [1, { d: null, e: undefined }], f: { g: -0, h: NaN, i: true } };
    const copy = copyValue(value);
    expect(copy).toEqual(structuredClone(value));
    expect(Object.is(copy.f.g, -0)).toBe(true);
    expect(copy).not.toBe(value);
    expect(copy.c).not.toBe(value.c);
    expect(copy.c[1]).not.toBe(value.c[1]);
  });

  it('hands everything else to structuredClone: dates, maps, sets, sparse arrays, cycles', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const copied = copyValue({ at, ids: new Set([1]), map: new Map([['k', 1]]) });
    expect(copied.at).toEqual(at);
    expect(copied.at).not.toBe(at);
    expect([...copied.ids]).toEqual([1]);
    expect(copied.map.get('k')).toBe(1);
    // eslint-disable-next-line no-sparse-arrays
    const sparse = copyValue([1, , 3]);
    expect(1 in sparse).toBe(false);
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const copy = copyValue(cyclic);
    expect(copy.self).toBe(copy);
  });

  it('throws for what structuredClone cannot copy', () => {
    expect(() => copyValue({ run: () => 1 })).toThrow();
    expect(() => copyValue([Symbol('s')])).toThrow();
  });
});
