import type { ReplicaAnswer, ReplicaSet } from '@corekit/testing/replica-harness';

/** The replicas of a check, by index (all live when a check starts). */
export const indexes = (count: number): number[] => [...Array(count).keys()];

type Surface = { id: string; metadata: Record<string, any> };

/** Selects one technology surface's metadata from a `/engine/technology-surfaces` answer. */
export const surfaceMetadata =
  (id: string) =>
  (answer: ReplicaAnswer): Record<string, any> =>
    (answer.body as Surface[]).find((surface) => surface.id === id)?.metadata ?? {};

/** One surface's metadata as each of the replicas `on` reports it now. */
export async function surfaceOn(
  set: ReplicaSet,
  id: string,
  on: readonly number[],
): Promise<Record<string, any>[]> {
  const select = surfaceMetadata(id);
  return Promise.all(
    on.map(async (index) => select(await set.replica(index).json('/engine/technology-surfaces'))),
  );
}

/** JSON request headers, with a bearer token when given. */
export const jsonHeaders = (token?: string): Record<string, string> => ({
  'content-type': 'application/json',
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});
