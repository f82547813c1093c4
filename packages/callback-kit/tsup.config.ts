import { packageBuild } from '../../tools/tsup-preset';

// Two entries: the main one, and the fuzz harness (`./fuzz`), whose declarations alone name fast-check.
export default packageBuild({ entry: ['src/index.ts', 'src/fuzz.ts'] });
