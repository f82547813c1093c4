import type { DependencyHealthContributor, EngineBuilder } from '@corekit/abstractions';
import type { ConfigurationFailure } from './configuration-refusals';
import { createTestEngineBuilder } from './test-engine-builder';

/**
 * Registration helpers for a probe's configuration tests: `register(entry)` calls the probe's `add*` with one
 * dependency (Id `defaultId` unless the entry sets one) on a clean builder and returns the contributors it
 * added; `register(null, environment)` reads the section from environment variables only.
 * `configurationError(entry)` returns the error registration threw, and fails the test when it did not throw;
 * `optionsError(options)` does the same for whole options (name the type: `probeRegistration<XOptions>(...)`).
 */
export function probeRegistration<Options = never>(
  add: (builder: EngineBuilder, options?: Options) => unknown,
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
    add(builder, (entry ? { Dependencies: [{ Id: defaultId, ...entry }] } : undefined) as Options);
    return added;
  }

  function configurationError(entry: Record<string, unknown>): ConfigurationFailure {
    return thrownBy(() => register(entry));
  }

  function optionsError(options: Options): ConfigurationFailure {
    const { builder } = createTestEngineBuilder();
    return thrownBy(() => add(builder, options));
  }

  return { register, configurationError, optionsError };
}

function thrownBy(registration: () => unknown): ConfigurationFailure {
  try {
    registration();
  } catch (error) {
    return error as ConfigurationFailure;
  }
  throw new Error('registration did not fail');
}
