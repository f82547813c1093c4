export { MemoryStoreProvider, defaultStoreMaxEntries } from './memory-store';
export type { InProcessStoreProviderOptions } from './memory-store';
export { FileStoreProvider } from './file-store';
export type { FileStoreProviderOptions } from './file-store';
export { storeFileFormat } from './store-file-format';
export { maxStoreKeyLength } from './keyed-core';
export { storesOptionsSchema, storesSectionPath, createStoreProvider } from './store-options';
export type { StoresOptions, StoreProviderContext } from './store-options';
