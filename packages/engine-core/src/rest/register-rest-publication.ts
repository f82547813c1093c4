import {
  CoreError,
  behaviorRuntimeExtensionKey,
  restPublicationExtensionKey,
  type EngineBuilder,
  type ModuleDefinition,
  type RestPublicationRuntime,
  type RuntimeState,
} from '@corekit/abstractions';
import { BehaviorRegistry } from './behavior-registry';
import { restPublicationCatalogs } from './rest-publication-catalogs';
import { bindRestPublicationOptions } from './rest-publication-options';
import {
  emptyRestPublication,
  restPublicationErrorCodes,
  runRestPublication,
  type RestPublicationResult,
} from './rest-publication-pipeline';

/** The builder's handle on REST publication. */
export interface RestPublicationRegistration {
  /** At build: loads the modules' behaviors and runs the pipeline; throws on any problem (the build fails). */
  resolve(modules: readonly ModuleDefinition[]): void;
  /** Once the engine exists: behaviors answer only while it is Started. */
  attach(engine: { readonly state: RuntimeState }): void;
}

/**
 * Registers the six REST catalogs and the two extensions hosts use: `corekit.behaviors` (call a behavior) and
 * `corekit.rest-publication` (the published endpoints with their behaviors).
 */
export function registerRestPublication(builder: EngineBuilder): RestPublicationRegistration {
  const behaviors = new BehaviorRegistry(builder.configuration, builder.logger);
  let result: RestPublicationResult = emptyRestPublication;
  for (const definition of restPublicationCatalogs(() => result)) builder.addCatalog(definition);
  builder.setExtension(behaviorRuntimeExtensionKey, behaviors);
  const runtime: RestPublicationRuntime = {
    endpoints: () =>
      result.endpoints.map((descriptor) => ({
        descriptor,
        behavior: behaviors.find(descriptor.behaviorId)!.behavior,
      })),
  };
  builder.setExtension(restPublicationExtensionKey, runtime);
  return {
    resolve(modules) {
      const problems = behaviors.load(modules);
      if (problems.length > 0) {
        throw new CoreError(
          restPublicationErrorCodes.invalid,
          `The engine cannot be built; behavior problems:\n- ${problems.join('\n- ')}`,
          { problems },
        );
      }
      result = runRestPublication(modules, behaviors, bindRestPublicationOptions(builder.configuration));
    },
    attach(engine) {
      behaviors.attach(() => engine.state);
    },
  };
}
