export { addTeamsNotifier, teamsTargetShape } from './add-teams-notifier';
export { teamsMessage } from './adaptive-card';
