import path from 'node:path';
import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { retrievalLifecycleAdapter } from './test-support/retrieval-lifecycle-adapter';

describePackLifecycleConformance(
  retrievalLifecycleAdapter({ packageDirectory: path.resolve(__dirname, '..') }),
);
