// The child process of the SIGKILL check of the pack lifecycle conformance suite (outbox lane on File, or on the
// shared store provider the parent names in EVENTING_LIFECYCLE_STORES).
import { runPackLifecycleFixture } from '@corekit/testing/pack-lifecycle-conformance';
import { eventingLifecycleAdapter } from '../test-support/eventing-lifecycle-adapter';
import { storesFromEnvironment } from '../test-support/store-providers';

void runPackLifecycleFixture(eventingLifecycleAdapter('outbox', undefined, storesFromEnvironment()));
