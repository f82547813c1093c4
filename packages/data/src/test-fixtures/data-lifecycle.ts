// The child process of the SIGKILL check of the pack lifecycle conformance suite (data pack, PostgreSQL pump).
import { runPackLifecycleFixture } from '@corekit/testing/pack-lifecycle-conformance';
import { dataLifecycleAdapter } from '../test-support/data-lifecycle-adapter';

void runPackLifecycleFixture(dataLifecycleAdapter(process.env.POSTGRES_URL!));
