import type { DependencyHealthContributor, EngineBuilder } from '@corekit/abstractions';
import { createTestEngineBuilder } from './test-engine-builder';

/**
 * Registration helpers for a probe's configuration tests: `register(entry)` calls the probe's `add*` with one
 * dependency (Id `defaultId` unless the entry sets one) on a clean builder and returns the contributors it
 * added; `register(null, environment)` reads the section from environment variables only.
 * `configurationError(entry)` returns the error registration threw, and fails the test when it did not throw.
 */
export function probeRegistration(
  add: (builder: EngineBuilder, options?: never) => unknown,
  defaultId: string,
) {
  function register(
    entry: Record<string, unknown> | null,
    environment?: Record<string, string>,
  ): DependencyHealthContributor[] {
    const { builder } = createTestEngineBuilder(environment ? { environment } : {});
    const added: DependencyHealthContributor[] = [];
    const original = builder.addDependencyHealthContributor.bind(builder);
    builder.addDependencyHealthContributor = (contributor) => {
      added.push(contributor);
      return original(contributor);
    };
    add(builder, (entry ? { Dependencies: [{ Id: defaultId, ...entry }] } : undefined) as never);
    return added;
  }

  function configurationError(entry: Record<string, unknown>): { code?: string; message: string } {
    try {
      register(entry);
    } catch (error) {
      return error as { code?: string; message: string };
    }
    throw new Error('registration did not fail');
  }

  return { register, configurationError };
}
