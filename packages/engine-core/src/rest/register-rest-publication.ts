import {
  CoreError,
  behaviorRuntimeKey,
  restPublicationKey,
  streamItemSchema,
  type EngineBuilder,
  type RestPublicationRuntime,
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

/**
 * Registers REST publication the way any pack would: the six REST catalogs, the typed extensions hosts use
 * (`behaviorRuntimeKey` to call a behavior, `restPublicationKey` for the published endpoints), and lifecycle
 * hooks: at build it loads the modules' behaviors and runs the publication pipeline (any problem fails the
 * build); once attached, behaviors answer only while the engine is Started.
 */
export function registerRestPublication(builder: EngineBuilder): void {
  const behaviors = new BehaviorRegistry(builder.configuration, builder.logger);
  let result: RestPublicationResult = emptyRestPublication;
  for (const definition of restPublicationCatalogs(() => result)) builder.addCatalog(definition);
  builder.provide(behaviorRuntimeKey, behaviors);
  const runtime: RestPublicationRuntime = {
    endpoints: () =>
      result.endpoints.map((descriptor) => ({
        descriptor,
        behavior: behaviors.find(descriptor.behaviorId)!.behavior,
      })),
  };
  builder.provide(restPublicationKey, runtime);
  builder.addLifecycleHooks({
    id: 'rest-publication',
    build({ modules }) {
      const problems = behaviors.load(modules);
      if (problems.length > 0) {
        throw new CoreError(
          restPublicationErrorCodes.invalid,
          `The engine cannot be built; behavior problems:\n- ${problems.join('\n- ')}`,
          { problems },
        );
      }
      result = runRestPublication(modules, behaviors, bindRestPublicationOptions(builder.configuration));
      // A streaming behavior answers an async iterable: REST would send `{}`. It belongs on SSE/WebSocket.
      return result.endpoints
        .filter((descriptor) => streamItemSchema(behaviors.find(descriptor.behaviorId)!.behavior))
        .map(
          (descriptor) =>
            `${descriptor.method} ${descriptor.path} publishes the streaming behavior "${descriptor.behaviorId}" over REST; streaming behaviors are served on the ServerSentEvents and WebSocket transports only`,
        );
    },
    attach(engine) {
      behaviors.attach(() => engine.state);
    },
  });
}
