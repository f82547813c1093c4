import { compareVersions, isValidRange, parseVersion, satisfies } from './version-range';

describe('version ranges of Engine:PackagePolicy:AllowedVersionRanges', () => {
  it.each([
    ['1.2.3', '1.2.3', true],
    ['1.2.4', '=1.2.3', false],
    ['1.2.3', '>=1.2.0 <2.0.0', true],
    ['2.0.0', '>=1.2.0 <2.0.0', false],
    ['1.9.9', '^1.2.0', true],
    ['2.0.0', '^1.2.0', false],
    ['1.1.9', '^1.2.0', false],
    ['0.2.9', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['0.0.4', '^0.0.3', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.9.0', '~1', true],
    ['1.4.2', '1.x', true],
    ['2.0.0', '1.x', false],
    ['1.2.7', '1.2.*', true],
    ['7.0.0', '*', true],
    ['1.5.0', '1.2 - 1.6', true],
    ['1.6.9', '1.2 - 1.6', true],
    ['1.7.0', '1.2 - 1.6', false],
    ['2.3.4', '1.2.3 - 2.3.4', true],
    ['2.3.5', '1.2.3 - 2.3.4', false],
    ['3.0.0', '^1.0.0 || ^3.0.0', true],
    ['2.0.0', '^1.0.0 || ^3.0.0', false],
    ['1.3.0', '>1.2', true],
    ['1.2.9', '>1.2', false],
    ['1.2.9', '<1.3', true],
    ['1.3.0', '<=1.2', false],
    ['1.2.99', '<=1.2', true],
    ['1.0.0', '>= 1.0.0', true],
  ])('%s against "%s" is %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('admits a prerelease only when the range names a prerelease of the same version', () => {
    expect(satisfies('1.5.0-rc.1', '^1.0.0')).toBe(false);
    expect(satisfies('2.0.0-beta.2', '>=2.0.0-beta.1 <3.0.0')).toBe(true);
    expect(satisfies('2.0.0-beta.2', '<2.0.0')).toBe(false);
    expect(satisfies('2.1.0-beta.2', '>=2.0.0-beta.1')).toBe(false);
  });

  it('orders prerelease identifiers as semver does', () => {
    const order = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
    ];
    for (let index = 1; index < order.length; index++) {
      expect(compareVersions(parseVersion(order[index - 1])!, parseVersion(order[index])!)).toBeLessThan(0);
    }
  });

  it('refuses what is not a version or a range', () => {
    expect(parseVersion('1.2')).toBeUndefined();
    expect(satisfies('not-a-version', '*')).toBe(false);
    expect(isValidRange('>=banana')).toBe(false);
    expect(isValidRange('^1.2.3 || 2.x')).toBe(true);
  });
});
