import type { StoreProvider } from '@corekit/abstractions';

/**
 * The body of one replica process of `describeSharedStoreProvider`'s cross-process test. A package's
 * `src/test-fixtures/increment-process.ts` calls it with a factory of its provider (own connections, on the
 * namespace given: a table, a key prefix). It opens store `counter` on `STORE_NAMESPACE`, and four concurrent
 * writers add `INCREMENTS` to key `n` between them by compare-and-set, retrying a lost race. Prints
 * `RETRIES <lost races>`, then `DONE`; exits 1 on any error.
 */
export function runStoreIncrementReplica(openProvider: (namespace: string) => StoreProvider): void {
  incrementAsReplica(openProvider).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

async function incrementAsReplica(openProvider: (namespace: string) => StoreProvider): Promise<void> {
  const provider = openProvider(requiredVariable('STORE_NAMESPACE'));
  const counter = provider.open<number>('counter');
  let retries = 0;
  const writer = async (count: number): Promise<void> => {
    for (let done = 0; done < count;) {
      const current = await counter.get('n');
      const result = await counter.put('n', (current?.value ?? 0) + 1, {
        expectedVersion: current?.version ?? 0,
      });
      if (result.written) done++;
      else retries++;
    }
  };
  const increments = Number(requiredVariable('INCREMENTS'));
  await Promise.all([0, 1, 2, 3].map(() => writer(increments / 4)));
  console.log(`RETRIES ${retries}`);
  console.log('DONE');
  await provider.close?.();
}

function requiredVariable(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`The increment replica needs the environment variable ${name}`);
  return value;
}
