// The child process of the SIGKILL check of the pack lifecycle conformance suite (data pack, PostgreSQL pump).
import { runPackLifecycleFixture } from '@corekit/testing';
import { dataLifecycleAdapter } from '../test-support/data-lifecycle-adapter';

void runPackLifecycleFixture(dataLifecycleAdapter(process.env.POSTGRES_URL!));
