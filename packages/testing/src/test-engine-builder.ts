import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngineBuilder, type Clock } from '@corekit/engine-core';
import { captureLogger, type CaptureLogger } from './capture-logger';

let emptyContentRoot: string | undefined;

/** A directory with no engine.json, created once per test process. */
export function emptyContentDirectory(): string {
  emptyContentRoot ??= mkdtempSync(path.join(os.tmpdir(), 'corekit-test-'));
  return emptyContentRoot;
}

export interface TestEngineBuilderOptions {
  /** Code configuration, nested by the spec's keys. */
  readonly configuration?: Record<string, unknown>;
  /** Directory with engine.json; default an empty directory (no file configuration). */
  readonly contentRoot?: string;
  /** Environment variables to read; default none (the test process's variables are ignored). */
  readonly environment?: Record<string, string | undefined>;
  /** The engine's clock; default the system clock. */
  readonly clock?: Clock;
}

/**
 * A real engine builder (from @corekit/engine-core) isolated from the machine: no engine.json, no
 * environment variables unless given, and a capture logger. Probe packages use it so their tests need no
 * direct dependency on engine-core.
 */
export function createTestEngineBuilder(options: TestEngineBuilderOptions = {}): {
  builder: ReturnType<typeof createEngineBuilder>;
  logger: CaptureLogger;
} {
  const logger = captureLogger();
  const builder = createEngineBuilder({
    contentRoot: options.contentRoot ?? emptyContentDirectory(),
    environment: options.environment ?? {},
    ...(options.configuration ? { configuration: options.configuration } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    logger,
  });
  return { builder, logger };
}
