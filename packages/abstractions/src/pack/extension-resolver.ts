import type { ExtensionKey } from './extension-key';

/** Reads typed extensions (`engine.resolve(key)`); undefined when nothing provided the key. */
export interface ExtensionResolver {
  resolve<T>(key: ExtensionKey<T>): T | undefined;
}
