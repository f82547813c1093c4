/**
 * Counting of live handles through `process.getActiveResourcesInfo()`, for leak tests. Types that jest and
 * the file system create on their own (file reads, TTY) are ignored.
 */

const ignored = new Set([
  'FSReqCallback',
  'FSReqPromise',
  'TTYWrap',
  'FSEventWrap',
  'StatWatcher',
  'SignalWrap',
  'ProcessWrap',
  'PipeWrap',
]);

/** Active resources by type (`TCPSocketWrap`, `Timeout`, `TLSWrap`...), ignoring jest's own. */
export function countActiveResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) {
    if (ignored.has(type)) continue;
    counts[type] = (counts[type] ?? 0) + 1;
  }
  return counts;
}

/** Types whose count is above `baseline`, with the excess; `{}` when none is. */
export function resourcesAbove(baseline: Record<string, number>): Record<string, number> {
  const excess: Record<string, number> = {};
  for (const [type, count] of Object.entries(countActiveResources())) {
    if (count > (baseline[type] ?? 0)) excess[type] = count - (baseline[type] ?? 0);
  }
  return excess;
}

/** Waits (polling) until no resource type exceeds `baseline`; returns the excess left when `timeoutMs` passed. */
export async function waitForResourcesAtMost(
  baseline: Record<string, number>,
  timeoutMs: number,
): Promise<Record<string, number>> {
  const deadline = Date.now() + timeoutMs;
  let excess = resourcesAbove(baseline);
  while (Object.keys(excess).length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 25));
    excess = resourcesAbove(baseline);
  }
  return excess;
}
