export { MemoryStoreProvider } from './memory-store';
export type { InProcessStoreProviderOptions } from './memory-store';
export { FileStoreProvider } from './file-store';
export type { FileStoreProviderOptions } from './file-store';
export { storeFileFormat } from './store-file-format';
export {
  storesOptionsSchema,
  storesSectionPath,
  storeProviderKinds,
  createStoreProvider,
  resolveStoreProvider,
} from './store-options';
export { StoreBinding } from './store-binding';
export type { StoresOptions, StoreProviderContext } from './store-options';
