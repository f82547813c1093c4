import { packageBuild } from '../../tools/tsup-preset';

export default packageBuild({ entry: ['src/index.ts', 'src/cli.ts', 'src/host-cli.ts'] });
