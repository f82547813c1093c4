import { sampleHostStarter } from './test-support/sample-starter';

const startSample = sampleHostStarter();

// Every misspelled key of a pack section stops the start with its path and the closest known key, or, when no
// key of that section is close, the keys the section takes.
/** The CONFIGURATION_INVALID message of a sample started with `environment`. */
async function refusal(environment: Record<string, string>): Promise<string | undefined> {
  const { logger } = await startSample(environment);
  return logger.records.find((record) => record.errorCode === 'CONFIGURATION_INVALID')?.message;
}

describe('misspelled keys of the sample host', () => {
  it('a key under Engine:Eventing close to none of its keys names the keys the section takes', async () => {
    const message = await refusal({ Engine__Eventing__Chanels__0__Id: 'orders' });
    expect(message).toContain(
      '`Engine:Eventing:Chanels` is not a known key; none of the keys of `Engine:Eventing` is close: `EnablePublication`,',
    );
    expect(message).toContain('`Outbox` (set in environment)');
  });

  it('a misspelled key of Engine:Eventing names the closest key', async () => {
    expect(await refusal({ Engine__Eventing__Outbox__Enabeld: 'true' })).toContain(
      '`Engine:Eventing:Outbox:Enabeld` is not a known key; did you mean `Enabled`? (set in environment)',
    );
  });
});
