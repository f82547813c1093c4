import { packageBuild } from '../../tools/tsup-preset';

export default packageBuild();
