// The child process of the SIGKILL check of the pack lifecycle conformance suite (capture pump, logical decoding).
import { runPackLifecycleFixture } from '@corekit/testing/pack-lifecycle-conformance';
import { logicalLifecycleAdapter } from '../test-support/logical-lifecycle-adapter';

void runPackLifecycleFixture(logicalLifecycleAdapter(() => process.env.LOGICAL_POSTGRES_URL!));
