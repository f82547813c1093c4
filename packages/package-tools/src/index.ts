export { packModulePackage } from './pack-module-package';
export type { PackResult } from './pack-module-package';
export { runPackageCommand, usage } from './run-package-command';
export type { CommandOutput } from './run-package-command';
