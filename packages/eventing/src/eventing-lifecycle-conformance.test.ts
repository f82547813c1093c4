import path from 'node:path';
import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { eventingLifecycleAdapter } from './test-support/eventing-lifecycle-adapter';

describePackLifecycleConformance(eventingLifecycleAdapter('direct'));
describePackLifecycleConformance(eventingLifecycleAdapter('outbox', path.resolve(__dirname, '..')));
