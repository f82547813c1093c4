// The child process of the SIGKILL check of the pack lifecycle conformance suite (in-process index, File store).
import { runPackLifecycleFixture } from '@corekit/testing/pack-lifecycle-conformance';
import { retrievalLifecycleAdapter } from '../test-support/retrieval-lifecycle-adapter';

void runPackLifecycleFixture(retrievalLifecycleAdapter());
