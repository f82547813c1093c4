// One replica of the cross-process test: opens the shared counter store on its own provider (own client) and
// adds INCREMENTS to key "n" by compare-and-set, retrying on a lost race. Prints RETRIES <n> then DONE.
import { RedisStoreProvider } from '../redis-store-provider';

async function main(): Promise<void> {
  const provider = new RedisStoreProvider({
    url: process.env.REDIS_URL!,
    keyPrefix: process.env.STORE_PREFIX!,
  });
  const counter = provider.open<number>('counter');
  let retries = 0;
  const worker = async (count: number): Promise<void> => {
    for (let done = 0; done < count;) {
      const current = await counter.get('n');
      const result = await counter.put('n', (current?.value ?? 0) + 1, {
        expectedVersion: current?.version ?? 0,
      });
      if (result.written) done++;
      else retries++;
    }
  };
  const increments = Number(process.env.INCREMENTS);
  await Promise.all([0, 1, 2, 3].map(() => worker(increments / 4)));
  console.log(`RETRIES ${retries}`);
  console.log('DONE');
  await provider.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
