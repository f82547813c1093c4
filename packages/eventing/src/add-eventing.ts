import { defineExtensionKey, type EngineBuilder, type JobHandle } from '@corekit/abstractions';
import { addDispatchJob } from './dispatch-job';
import { eventingCatalogs } from './eventing-catalogs';
import { eventingEventIdNames } from './eventing-event-ids';
import { eventingOptionsSchema, type EventingOptions, type EventingOptionsInput } from './eventing-options';
import { EventingPackRuntime } from './eventing-pack-runtime';
import { eventingRegistry } from './eventing-registry';
import type { DispatchPassResult } from './outbox-dispatcher';
import { publicationOperation } from './publication-operation';

/** What `addEventing` returns: the bound options and the dispatch job (null without the outbox lane). */
export interface EventingRegistration {
  readonly options: EventingOptions;
  /** The dispatch job; `trigger()` runs one pass now (tests, operators). */
  readonly dispatchJob: JobHandle<DispatchPassResult> | null;
}

/** Resolves to the running eventing pack (for companion packages and tests). */
export const eventingRegistrationKey = defineExtensionKey<EventingRegistration>(
  '@corekit/eventing/registration',
  'the eventing pack registration: bound options and dispatch job',
);

/**
 * Registers the eventing pack (section `Engine:Eventing`): the publication operation, in-process subscription
 * execution, the optional outbox lane with its dispatch job, the four eventing catalogs, the technology
 * surfaces and the event ids 3220-3239. Modules declare channels, subscriptions and publishers with
 * `declareEventing`; unknown references fail the build. Calling it twice is refused.
 */
export function addEventing(builder: EngineBuilder, options?: EventingOptionsInput): EventingRegistration {
  builder.claimRegistration({ packageName: '@corekit/eventing', entry: 'addEventing' });
  builder.declarePack({ packageName: '@corekit/eventing', specificationVersion: 1 });
  const settings = builder.configuration.bind('Engine:Eventing', eventingOptionsSchema, options);
  const registry = eventingRegistry(builder);
  builder.addEventIds({
    component: '@corekit/eventing',
    ranges: [[3220, 3239]],
    names: eventingEventIdNames,
  });

  const runtime = new EventingPackRuntime(builder, settings, registry);
  const dispatchJob = addDispatchJob(builder, settings.Outbox, runtime);
  for (const catalog of eventingCatalogs(runtime.catalogSources())) builder.addCatalog(catalog);
  builder.addTechnologySurfaces(() => runtime.surfaces());
  builder.addOperation(publicationOperation(runtime));
  builder.addLifecycleHooks(runtime.lifecycleHooks());

  const registration: EventingRegistration = { options: settings, dispatchJob };
  builder.provide(eventingRegistrationKey, registration);
  return registration;
}
