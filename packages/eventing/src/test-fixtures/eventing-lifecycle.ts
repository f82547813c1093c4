// The child process of the SIGKILL check of the pack lifecycle conformance suite (outbox lane on File).
import { runPackLifecycleFixture } from '@corekit/testing';
import { eventingLifecycleAdapter } from '../test-support/eventing-lifecycle-adapter';

void runPackLifecycleFixture(eventingLifecycleAdapter('outbox'));
