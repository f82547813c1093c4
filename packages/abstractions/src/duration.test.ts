import { parseDuration, formatDuration } from './duration';

describe('parseDuration', () => {
  it.each([
    ['00:00:30', 30_000],
    ['01:02:03', 3_723_000],
    ['1.00:00:00', 86_400_000],
    ['00:00:00.5', 500],
    ['30s', 30_000],
    ['500ms', 500],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['PT30S', 30_000],
    ['PT1M30S', 90_000],
    ['P1DT1H', 90_000_000],
    ['pt0.25s', 250],
  ])('accepts %s', (text, expected) => {
    expect(parseDuration(text)).toBe(expected);
  });

  it.each(['30', 'abc', '', 'PT', 'P', '00:61:00', '10 seconds', '-5s'])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('formats milliseconds as an ISO-8601 duration', () => {
    expect(formatDuration(1500)).toBe('PT1.5S');
    expect(formatDuration(0)).toBe('PT0S');
  });
});
