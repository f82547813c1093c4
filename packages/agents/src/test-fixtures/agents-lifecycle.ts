// The child process of the SIGKILL check of the pack lifecycle conformance suite (agent tool runs on File).
import { runPackLifecycleFixture } from '@corekit/testing/pack-lifecycle-conformance';
import { agentsLifecycleAdapter } from '../test-support/agents-lifecycle-adapter';

void runPackLifecycleFixture(agentsLifecycleAdapter());
