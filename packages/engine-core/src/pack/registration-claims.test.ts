import { CoreError, registrationErrorCodes } from '@corekit/abstractions';
import { testBuilder } from '../testing-support/engine-fixtures';

function refusal(action: () => unknown): CoreError {
  try {
    action();
  } catch (error) {
    if (error instanceof CoreError) return error;
    throw error;
  }
  throw new Error('expected the call to be refused');
}

describe('builder.claimRegistration', () => {
  it('accepts the first claim of a package and reports it through hasRegistration', () => {
    const { builder } = testBuilder();
    builder.claimRegistration({ packageName: '@corekit/notes', entry: 'addNotes' });
    expect(builder.hasRegistration('@corekit/notes')).toBe(true);
  });

  it('refuses a second claim with ALREADY_REGISTERED naming the entry and the package', () => {
    const { builder } = testBuilder();
    builder.claimRegistration({ packageName: '@corekit/notes', entry: 'addNotes' });
    const error = refusal(() =>
      builder.claimRegistration({ packageName: '@corekit/notes', entry: 'addNotes' }),
    );
    expect(error.code).toBe(registrationErrorCodes.alreadyRegistered);
    expect(error.code).toBe('ALREADY_REGISTERED');
    expect(error.message).toContain('addNotes');
    expect(error.message).toContain('@corekit/notes');
    expect(error.details).toEqual({
      packageName: '@corekit/notes',
      entry: 'addNotes',
      key: '@corekit/notes',
    });
  });

  it('keeps claims of one package under different keys apart', () => {
    const { builder } = testBuilder();
    builder.claimRegistration({ packageName: '@corekit/notes', entry: 'addNotes' });
    builder.claimRegistration({
      packageName: '@corekit/notes',
      entry: 'addNotesDelivery',
      key: '@corekit/notes/delivery',
    });
    const error = refusal(() =>
      builder.claimRegistration({
        packageName: '@corekit/notes',
        entry: 'addNotesDelivery',
        key: '@corekit/notes/delivery',
      }),
    );
    expect(error.code).toBe('ALREADY_REGISTERED');
    expect(error.message).toContain('addNotesDelivery');
  });

  it('refuses a claim of a key a kit marked before', () => {
    const { builder } = testBuilder();
    builder.markRegistration('@corekit/notes');
    expect(() => builder.claimRegistration({ packageName: '@corekit/notes', entry: 'addNotes' })).toThrow(
      /addNotes \(@corekit\/notes\) was already called/,
    );
  });
});
