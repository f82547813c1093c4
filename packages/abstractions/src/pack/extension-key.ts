/**
 * A typed key for a value one package provides and another reads (`builder.provide(key, value)`,
 * `engine.resolve(key)`). The type travels with the key, so the reader needs no cast and no string: a pack
 * exports its key, and a host or another pack imports it.
 */
export interface ExtensionKey<T> {
  /** Unique name, `<package>/<what>` by convention (`@corekit/web-host/transport:GraphQL`). */
  readonly id: string;
  readonly description: string;
  /** Type carrier only; never set. */
  readonly __type?: (value: T) => T;
}

/** Declares a typed extension key. Two keys with the same id are the same key. */
export function defineExtensionKey<T>(id: string, description: string): ExtensionKey<T> {
  if (!/^[@A-Za-z0-9][\w@./:-]*$/.test(id)) {
    throw new TypeError(`Extension key id "${id}" must be letters, digits and @ . / : _ -`);
  }
  return Object.freeze({ id, description });
}
