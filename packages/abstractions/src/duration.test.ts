import { durationSchema, parseDuration, formatDuration } from './duration';

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

describe('durationSchema', () => {
  it('refuses a bare number and shows what a duration looks like', () => {
    const result = durationSchema().safeParse(30);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe(
      'must be a duration such as "30s", "500ms", "00:00:30" or "PT30S", got the bare number 30: add a unit ("30s" for seconds)',
    );
  });

  it('accepts the three forms', () => {
    for (const value of ['30s', '00:00:30', 'PT30S']) expect(durationSchema().parse(value)).toBe(30_000);
  });
});
