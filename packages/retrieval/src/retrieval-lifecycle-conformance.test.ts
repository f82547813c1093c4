import path from 'node:path';
import { describePackLifecycleConformance } from '@corekit/testing';
import { retrievalLifecycleAdapter } from './test-support/retrieval-lifecycle-adapter';

describePackLifecycleConformance(
  retrievalLifecycleAdapter({ packageDirectory: path.resolve(__dirname, '..') }),
);
