import { z } from 'zod';
import {
  CoreError,
  errorCode,
  eventIdRanges,
  healthReportSchema,
  isPlaceholder,
  isSecretSchema,
  probeEventIds,
  secretString,
  worstStatus,
} from './index';

describe('health statuses', () => {
  it('orders Unhealthy over Degraded over Healthy', () => {
    expect(worstStatus('Healthy', 'Degraded')).toBe('Degraded');
    expect(worstStatus('Unhealthy', 'Degraded')).toBe('Unhealthy');
    expect(worstStatus('Healthy', 'Healthy')).toBe('Healthy');
  });

  it('rejects a report with an unknown status', () => {
    const report = {
      status: 'UP',
      duration: 'PT0S',
      durationMs: 0,
      checkedAtUtc: '',
      runtime: { state: 'Started', restartCount: 0, lastFailure: null },
      reasons: [],
    };
    expect(healthReportSchema.safeParse(report).success).toBe(false);
    expect(healthReportSchema.safeParse({ ...report, status: 'Degraded' }).success).toBe(true);
  });
});

describe('secrets', () => {
  it('recognises secret schemas through optional and default wrappers', () => {
    expect(isSecretSchema(secretString())).toBe(true);
    expect(isSecretSchema(secretString().optional())).toBe(true);
    expect(isSecretSchema(z.string())).toBe(false);
  });

  it.each([
    ['<SECRET>', true],
    [' <REDIS_PASSWORD> ', true],
    ['<a> and <b>', false],
    ['s3cr<e>t', false],
    ['', false],
  ])('treats %j as a placeholder: %s', (value, expected) => expect(isPlaceholder(value)).toBe(expected));
});

describe('event-id catalog (spec 6)', () => {
  it('has no overlapping ranges', () => {
    const ids = eventIdRanges.flatMap((entry) =>
      entry.ranges.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => from + i)),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every probe kind a pair of ids inside its component range', () => {
    const all = new Set(eventIdRanges.flatMap((entry) => entry.ranges.flatMap(([from, to]) => [from, to])));
    expect(Object.keys(probeEventIds)).toHaveLength(18);
    for (const { healthy, unhealthy } of Object.values(probeEventIds)) {
      expect(unhealthy).toBe(healthy + 1);
      expect(all.has(healthy)).toBe(true);
    }
  });
});

describe('errors', () => {
  it('keeps a stable code and safe details', () => {
    const error = new CoreError('SOME_CODE', 'what to do', { key: 'Engine:X' });
    expect(errorCode(error)).toBe('SOME_CODE');
    expect(errorCode(new Error('plain'))).toBe('UNEXPECTED_ERROR');
    expect(error.details).toEqual({ key: 'Engine:X' });
  });
});
