/** The error a refused registration threw: CONFIGURATION_INVALID with a message naming the key path. */
export interface ConfigurationFailure {
  readonly code?: string;
  readonly message: string;
}

/** One row of a refusal table: the entry fields, the field whose key path the message names, and what it says. */
export type EntryRefusal = readonly [entry: Record<string, unknown>, field: string, expected: RegExp];

/**
 * Table-driven configuration tests: one jest test per row, each registering the row's entry with
 * `configurationError` (from `probeRegistration`) and asserting CONFIGURATION_INVALID, the full key path
 * `${entryPath}:${field}`, the row's pattern, and that no text of `neverShown` (a password a row sets) appears.
 */
export function itRefusesEachEntry(
  configurationError: (entry: Record<string, unknown>) => ConfigurationFailure,
  entryPath: string,
  rows: readonly EntryRefusal[],
  neverShown: readonly string[] = [],
): void {
  it.each(rows)('refuses %j at the full key path of %s', (entry, field, expected) => {
    const error = configurationError(entry);
    expect(error.code).toBe('CONFIGURATION_INVALID');
    expect(error.message).toContain(`${entryPath}:${field}`);
    expect(error.message).toMatch(expected);
    for (const secret of neverShown) expect(error.message).not.toContain(secret);
  });
}

/**
 * One row of a refusal table over whole options (or a part of them, such as the Dependencies list): a label
 * for the test title, the input, and a text the message must contain (the full key path and what is wrong).
 */
export type OptionsRefusal<Input> = readonly [label: string, input: Input, expected: string];

/**
 * Table-driven configuration tests over whole options: one jest test per row, each passing the row's input
 * to `registrationError` (`(dependencies) => optionsError({ Dependencies: dependencies })` with
 * `probeRegistration`) and asserting CONFIGURATION_INVALID, the row's text, and that no text of `neverShown`
 * appears.
 */
export function itRefusesEachOptions<Input>(
  registrationError: (input: Input) => ConfigurationFailure,
  rows: readonly OptionsRefusal<Input>[],
  neverShown: readonly string[] = [],
): void {
  it.each(rows.map(([label, input, expected]) => ({ label, input, expected })))(
    'fails at registration with CONFIGURATION_INVALID and the key path for $label',
    ({ input, expected }) => {
      const error = registrationError(input);
      expect(error.code).toBe('CONFIGURATION_INVALID');
      expect(error.message).toContain(expected);
      for (const secret of neverShown) expect(error.message).not.toContain(secret);
    },
  );
}

/** A test that registering `entry` (whose Password is a placeholder such as `<SECRET>`) is refused at Password. */
export function itRefusesPlaceholderPassword(
  configurationError: (entry: Record<string, unknown>) => ConfigurationFailure,
  entryPath: string,
  entry: Record<string, unknown>,
): void {
  it('refuses a password left as a placeholder', () => {
    const error = configurationError(entry);
    expect(error.code).toBe('CONFIGURATION_INVALID');
    expect(error.message).toContain(`${entryPath}:Password`);
  });
}
