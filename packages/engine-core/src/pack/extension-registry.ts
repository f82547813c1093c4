import { CoreError, type ExtensionKey, type ExtensionResolver } from '@corekit/abstractions';

/** Typed extensions provided by packs and read by hosts and other packs. */
export class ExtensionRegistry implements ExtensionResolver {
  private readonly values = new Map<string, unknown>();

  provide<T>(key: ExtensionKey<T>, value: T): void {
    if (this.values.has(key.id)) {
      throw new CoreError(
        'EXTENSION_DUPLICATE',
        `The extension ${key.id} (${key.description}) is already provided; each key has one provider`,
      );
    }
    this.values.set(key.id, value);
  }

  resolve<T>(key: ExtensionKey<T>): T | undefined {
    return this.values.get(key.id) as T | undefined;
  }
}
