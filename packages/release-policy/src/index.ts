export { copyReleaseTree, removeReleaseTree } from './release-tree';
export {
  fixedGroup,
  peerWindowPattern,
  peerWindowProblems,
  publishedRange,
  rangeProblems,
  releaseNotesProblems,
} from './version-policy';
export { readWorkspacePackages, workspaceFolders } from './workspace-packages';
export type { WorkspacePackage } from './workspace-packages';
