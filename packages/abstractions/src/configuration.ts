import type { ZodType } from 'zod';

/**
 * Read access to the merged configuration (defaults, engine.json, engine.<NODE_ENV>.json, environment
 * variables with `__` for `:`, then code). Keys are the spec's, looked up case-insensitively.
 */
export interface ConfigurationReader {
  /** The environment name that selected `engine.<name>.json` (NODE_ENV by default); undefined when none. */
  readonly environmentName: string | undefined;
  /**
   * One environment variable as the engine sees it (the builder's `environment` option, `process.env` by
   * default): for standard variables a package honours (`OTEL_SERVICE_NAME`), so a test can pass its own.
   */
  environmentVariable(name: string): string | undefined;
  /** The raw value at a `:`-separated key path, or undefined. */
  get(path: string): unknown;
  /** The subtree at a key path as a plain object (arrays where every child key is an index). */
  getSection(path: string): unknown;
  /**
   * Binds and validates the section at `path` against `schema` (keys matched case-insensitively). Throws a
   * CoreError with code CONFIGURATION_INVALID naming every full key path at fault, and refuses secrets left
   * as `<PLACEHOLDER>` values.
   */
  bind<T>(path: string, schema: ZodType<T>, codeOptions?: unknown): T;
}
