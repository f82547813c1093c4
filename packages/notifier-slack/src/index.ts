export { addSlackNotifier, slackTargetShape } from './add-slack-notifier';
export { slackMessage } from './slack-message';
