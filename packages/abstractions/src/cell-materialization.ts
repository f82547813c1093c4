import type { MaterializationReport } from './cell-descriptors';
import { defineExtensionKey } from './pack/extension-key';

/** How hosts and materializers report what they applied to a cell traffic automation. */
export interface CellMaterializationReporter {
  reportProviderMaterialization(automationId: string, report: MaterializationReport): void;
  reportEdgeMaterialization(automationId: string, report: MaterializationReport): void;
}

/** Typed key of the engine's cell materialization reporter: `engine.resolve(cellMaterializationKey)`. */
export const cellMaterializationKey = defineExtensionKey<CellMaterializationReporter>(
  '@corekit/abstractions/cell-materialization',
  'reports provider and edge materialization of cell traffic automations',
);
