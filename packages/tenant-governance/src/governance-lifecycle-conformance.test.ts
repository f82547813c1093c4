import path from 'node:path';
import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { governanceLifecycleAdapter } from './governance-lifecycle-test-support';

describePackLifecycleConformance(governanceLifecycleAdapter(path.resolve(__dirname, '..')));
