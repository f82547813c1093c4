import { z } from 'zod';

/**
 * Field builders shared by every probe section. Values from environment variables arrive as strings, so
 * number and boolean fields accept their string spellings (`"5"`, `"true"`) as well.
 */

function fromString(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^[+-]?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (/^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
  return value;
}

/** A positive integer (seconds, counts), also accepted as a numeric string. */
export function positiveIntegerField(description: string) {
  return z
    .preprocess(
      fromString,
      z
        .number({ error: 'must be a positive integer' })
        .int('must be a positive integer')
        .positive('must be a positive integer'),
    )
    .describe(description);
}

/** A TCP port number (1-65535), also accepted as a numeric string. */
export function portField(description = 'TCP port of the upstream') {
  return z
    .preprocess(
      fromString,
      z
        .number({ error: 'must be a port number (1-65535)' })
        .int('must be a port number (1-65535)')
        .min(1, 'must be a port number (1-65535)')
        .max(65535, 'must be a port number (1-65535)'),
    )
    .describe(description);
}

/** A non-negative integer (a logical database number), also accepted as a numeric string. */
export function nonNegativeIntegerField(description: string) {
  return z
    .preprocess(
      fromString,
      z
        .number({ error: 'must be a non-negative integer' })
        .int('must be a non-negative integer')
        .min(0, 'must be a non-negative integer'),
    )
    .describe(description);
}

/** A boolean, also accepted as `"true"` / `"false"` (any case). */
export function booleanField(description: string) {
  return z.preprocess(fromString, z.boolean({ error: 'must be true or false' })).describe(description);
}

/** A list of strings given as an array or as one comma-separated string (`"a:1,b:2"`). */
export function stringListField(description: string) {
  return z
    .preprocess(
      (value) =>
        typeof value === 'string'
          ? value
              .split(',')
              .map((part) => part.trim())
              .filter((part) => part.length > 0)
          : value && typeof value === 'object' && !Array.isArray(value)
            ? Object.values(value as Record<string, unknown>)
            : value,
      z.array(z.string().min(1), { error: 'must be a list of strings or a comma-separated string' }),
    )
    .describe(description);
}

/** A list of integers (status codes), given as an array or a comma-separated string. */
export function integerListField(description: string) {
  return z
    .preprocess(
      (value) => {
        const items =
          typeof value === 'string'
            ? value
                .split(',')
                .map((part) => part.trim())
                .filter((part) => part.length > 0)
            : value && typeof value === 'object' && !Array.isArray(value)
              ? Object.values(value as Record<string, unknown>)
              : value;
        return Array.isArray(items) ? items.map(fromString) : items;
      },
      z.array(z.number().int('must be a list of integers'), { error: 'must be a list of integers' }),
    )
    .describe(description);
}

/** A non-empty string. */
export function textField(description: string) {
  return z
    .string({ error: 'must be a non-empty string' })
    .min(1, 'must be a non-empty string')
    .describe(description);
}

/**
 * Fields common to every dependency entry (spec 2.3). DisplayName defaults to Id after validation (see
 * defineProbe); Required defaults to true; TimeoutSeconds to 5.
 */
export const dependencyEntryCommonShape = {
  /** Stable id of the dependency, unique within the kind; it is the contributor id the engine reports. */
  Id: z
    .string({ error: 'is required: a stable, non-empty id' })
    .min(1, 'is required: a stable, non-empty id')
    .describe('stable id of the dependency'),
  /** Label shown in health reports; defaults to Id. */
  DisplayName: z
    .string()
    .min(1, 'must be a non-empty string')
    .optional()
    .describe('label shown in health reports; defaults to Id'),
  /** A required dependency's failure makes readiness Unhealthy; an optional one's only Degraded. */
  Required: booleanField(
    'required upstream failure pulls readiness to Unhealthy; optional only degrades',
  ).default(true),
  /** Timeout of one check in seconds; the engine aborts the run when it passes. */
  TimeoutSeconds: positiveIntegerField('probe timeout in seconds').default(5),
};

/** Fields of every probe section (spec 2.3). Dependencies is an array of entries of the kind. */
export const probeSectionBaseShape = {
  /** Background refresh interval in seconds, shared by every dependency of the kind. */
  RefreshIntervalSeconds: positiveIntegerField('background refresh interval in seconds').default(30),
  /** One entry per upstream; the generic array here is replaced by the kind's entry schema in defineProbe. */
  Dependencies: z.array(z.record(z.string(), z.unknown())).default([]),
};
