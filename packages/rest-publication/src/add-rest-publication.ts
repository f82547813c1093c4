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

/** The registration key of REST publication: `builder.hasRegistration(restPublicationPackageName)`. */
export const restPublicationPackageName = '@corekit/rest-publication';

/**
 * Registers REST publication the way any pack would: the six REST catalogs, the typed extensions hosts use
 * (`behaviorRuntimeKey` to call a behavior, `restPublicationKey` for the published endpoints), and lifecycle
 * hooks: at build it loads the modules' behaviors and runs the publication pipeline (any problem fails the
 * build); once attached, behaviors answer only while the engine is Started.
 *
 * The web and worker hosts call it on the builder they are given, so an application never has to; a second
 * call on one builder (an application that calls it before handing the builder to a host) is a no-op rather
 * than an error, because the host cannot know whether the application already did.
 */
export function addRestPublication(builder: EngineBuilder): void {
  if (builder.hasRegistration(restPublicationPackageName)) return;
  builder.markRegistration(restPublicationPackageName);
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
