import path from 'node:path';
import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { agentsLifecycleAdapter } from './test-support/agents-lifecycle-adapter';

describePackLifecycleConformance(agentsLifecycleAdapter(path.resolve(__dirname, '..')));
