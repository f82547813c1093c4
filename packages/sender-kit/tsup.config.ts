import { packageBuild } from '../../tools/tsup-preset';

// `testing` is the test host sender packages share (imports the engine, tenancy and testing packages).
export default packageBuild({ entry: ['src/index.ts', 'src/testing/index.ts'] });
