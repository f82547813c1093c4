/**
 * Asserts the one way a second `add*` call is refused (`builder.claimRegistration`): `second` throws a
 * CoreError with code ALREADY_REGISTERED whose message names the entry and its package.
 */
export function expectSecondCallRefused(second: () => unknown, entry: string, packageName: string): void {
  expect(second).toThrow(
    expect.objectContaining({
      code: 'ALREADY_REGISTERED',
      message: expect.stringContaining(`${entry} (${packageName}) was already called on this builder`),
    }),
  );
}
