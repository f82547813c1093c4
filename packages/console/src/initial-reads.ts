/**
 * The JSON routes the page reads when it opens, relative to the page (`/engine/console`): the page's head asks
 * the browser to preload them (`<link rel="preload" as="fetch">`), so they travel while the script loads, and the
 * script's first reads (`ConsoleStore.reload`) take them from the preload cache. One list for both sides.
 */
export const initialReads = {
  status: 'status',
  dependencies: 'dependencies',
  story: 'runtime-story',
  strips: 'console/history?windowMinutes=60&perDependency=30',
  since: 'console/dependency-states',
} as const;
