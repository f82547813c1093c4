import { errorCode } from '@corekit/abstractions';

/** The environment variable that adds stack traces to a startup report (`COREKIT_DEBUG=1`). */
export const debugVariable = 'COREKIT_DEBUG';

/** What a startup error asks the person reading it to do, by code prefix; the first match wins. */
const advice: ReadonlyArray<readonly [RegExp, string]> = [
  [/^CONFIGURATION_FILE_INVALID$/, 'Fix the JSON syntax of the file named above, then start again.'],
  [
    /CONFIGURATION|_OPTIONS_INVALID$/,
    'Correct each key path above in engine.json, engine.<NODE_ENV>.json, its environment variable ' +
      '(":" written "__", as in Engine__Web__Port) or the options passed in code, then start again.',
  ],
  [
    /^HOST_PORT_/,
    'Choose another port with PORT or Engine:Web:Port (Engine__Web__Port), or stop the process that holds it.',
  ],
];

const fallbackAdvice = 'Fix the cause above, then start again.';

/** Options of formatStartupError. */
export interface StartupReportOptions {
  /** Add the stack traces (the error's and its causes'). Default: `COREKIT_DEBUG` is `1` or `true`. */
  readonly debug?: boolean;
  /** Read for `COREKIT_DEBUG` when `debug` is not given. Default process.env. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
}

/** True when `COREKIT_DEBUG` asks for stack traces. */
export function isDebugEnabled(
  environment: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  const value = environment[debugVariable]?.trim().toLowerCase();
  return value === '1' || value === 'true' || value === 'yes';
}

/** The error and its `cause` chain, outermost first (at most 8 deep, cycles cut). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function detailsOf(error: unknown): Record<string, unknown> {
  const details = (error as { details?: unknown })?.details;
  return details && typeof details === 'object' ? (details as Record<string, unknown>) : {};
}

/** One problem as a line: strings as they are, `{ path, message }` objects as `path: message`. */
function problemLine(problem: unknown): string {
  if (typeof problem === 'string') return problem;
  if (problem && typeof problem === 'object') {
    const { path, keyPath, message } = problem as Record<string, unknown>;
    const where = typeof keyPath === 'string' ? keyPath : typeof path === 'string' ? path : undefined;
    if (typeof message === 'string') return where ? `${where}: ${message}` : message;
  }
  return JSON.stringify(problem);
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : JSON.stringify(error);
}

function indent(text: string, prefix = '  '): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

/**
 * One readable block for an error that stopped a host from starting: the code (with the codes of its
 * causes), the message, every problem of `details.problems` (the binder puts one line per key path there),
 * and what to do. Stack traces only with `debug` (or `COREKIT_DEBUG=1`). It prints what the error carries:
 * messages made by the configuration binder are already free of secret values; the report cannot redact a
 * secret some other code put into its message.
 */
export function formatStartupError(error: unknown, options: StartupReportOptions = {}): string {
  const debug = options.debug ?? isDebugEnabled(options.environment);
  const chain = causeChain(error);
  const codes = [...new Set(chain.map((link) => errorCode(link, '')).filter((code) => code !== ''))];
  const code = codes[0] ?? 'UNEXPECTED_ERROR';
  const withProblems = chain.find((link) => Array.isArray(detailsOf(link).problems));
  const problems = ((withProblems && detailsOf(withProblems).problems) as unknown[] | undefined) ?? [];
  const lines = [
    `Startup failed: ${code}${codes.length > 1 ? ` (caused by ${codes.slice(1).join(' <- ')})` : ''}`,
  ];
  // With problems listed, the message's own "- ..." list would only repeat them: keep its heading.
  const message = messageOf(error);
  lines.push(indent(problems.length > 0 ? message.split('\n')[0].replace(/:\s*$/, '') : message));
  if (problems.length > 0) {
    lines.push(`  Problems (${problems.length}):`);
    for (const problem of problems) lines.push(indent(`- ${problemLine(problem)}`, '    '));
  }
  const explicit = chain.map((link) => detailsOf(link).whatToDo).find((hint) => typeof hint === 'string');
  const matched = codes.flatMap((one) =>
    advice.filter(([pattern]) => pattern.test(one)).map(([, text]) => text),
  );
  lines.push(`  What to do: ${(explicit as string | undefined) ?? matched[0] ?? fallbackAdvice}`);
  if (debug) {
    for (const link of chain) {
      if (link instanceof Error && link.stack)
        lines.push(indent(link === error ? link.stack : `Caused by: ${link.stack}`));
    }
  } else {
    lines.push(`  (Set ${debugVariable}=1 to add the stack trace.)`);
  }
  return `${lines.join('\n')}\n`;
}

/** Options of reportStartupFailure. */
export interface StartupFailureOptions extends StartupReportOptions {
  /** Where the block goes. Default process.stderr. */
  readonly write?: (text: string) => void;
  /** Ends the process. Default process.exit. */
  readonly exit?: (code: number) => void;
}

/** Writes the startup report of `error` to stderr and ends the process with exit code 1. */
export function reportStartupFailure(error: unknown, options: StartupFailureOptions = {}): void {
  const write = options.write ?? ((text: string) => process.stderr.write(text));
  write(formatStartupError(error, options));
  (options.exit ?? ((code: number) => process.exit(code)))(1);
}

/**
 * Runs a host's startup code (`main`) and turns anything it throws into the startup report on stderr and exit
 * code 1: the entry point of a host process, so a configuration mistake in code that runs before the host
 * exists (binding a section of your own, building the engine, listening) reads the same as one the host
 * catches. Resolves with what `main` returned. With an `exit` that returns (tests), the error is rethrown.
 */
export async function runStartup<T>(
  main: () => T | Promise<T>,
  options: StartupFailureOptions = {},
): Promise<T> {
  try {
    return await main();
  } catch (error) {
    reportStartupFailure(error, options);
    throw error;
  }
}
