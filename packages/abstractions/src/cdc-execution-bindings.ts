import type { z } from 'zod';
import type { executionBindingSchema } from './descriptors';
import { defineExtensionKey } from './pack/extension-key';

/** A capture's resolved execution runtime (spec 2.4 executionBinding). */
export type ExecutionBinding = z.infer<typeof executionBindingSchema>;

/**
 * The resolved execution binding of every declared CDC capture, provided by the data pack so the engine's
 * `/engine/cdc-captures` catalog presents `executionBinding` without knowing the pack.
 */
export interface CdcExecutionBindings {
  bindingOf(cdcCaptureId: string): ExecutionBinding | undefined;
  effectiveRuntimeOf(cdcCaptureId: string): string | null;
}

export const cdcExecutionBindingsKey = defineExtensionKey<CdcExecutionBindings>(
  '@corekit/abstractions/cdc-execution-bindings',
  'the resolved executionBinding of each declared CDC capture',
);
