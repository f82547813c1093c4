/** Resolves true when `work` settled within `ms`, false when the wait ran out (the work goes on unobserved). */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref?.();
  });
  const settled = work.then(
    () => true as const,
    () => true as const,
  );
  const outcome = await Promise.race([settled, timedOut]);
  clearTimeout(timer);
  return outcome;
}
