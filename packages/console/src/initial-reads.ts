/**
 * The JSON routes the page reads before its first paint, relative to the page (`/engine/console`): the page's head
 * asks the browser to preload them (`<link rel="preload" as="fetch">`, after the script, so the script never waits
 * for a free connection behind them), and the script's first reads (`ConsoleStore.reload`) take them from the
 * preload cache. One list for both sides.
 */
export const initialReads = {
  status: 'status',
  dependencies: 'dependencies',
  story: 'runtime-story',
  since: 'console/dependency-states',
} as const;

/**
 * The history strips: the largest read (about 3 MB of JSON for 1,000 checks with 30 samples each), neither
 * preloaded nor read before the first paint; the overview asks for it once its rows are painted.
 */
export const stripsRead = 'console/history?windowMinutes=60&perDependency=30';
