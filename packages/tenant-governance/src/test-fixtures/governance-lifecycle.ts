// The child process of the SIGKILL check of the pack lifecycle conformance suite (delivery retry queue on File).
import { runPackLifecycleFixture } from '@corekit/testing/pack-lifecycle-conformance';
import { governanceLifecycleAdapter } from '../governance-lifecycle-test-support';

void runPackLifecycleFixture(governanceLifecycleAdapter());
