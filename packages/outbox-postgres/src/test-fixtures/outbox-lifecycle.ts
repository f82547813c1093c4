// The child process of the SIGKILL check of the pack lifecycle conformance suite (eventing on the PostgreSQL outbox).
import { runPackLifecycleFixture } from '@corekit/testing/pack-lifecycle-conformance';
import { outboxLifecycleAdapter } from '../test-support/outbox-lifecycle-adapter';

void runPackLifecycleFixture(outboxLifecycleAdapter(process.env.POSTGRES_URL!, process.env.OUTBOX_TABLE!));
