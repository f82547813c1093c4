export { addAlertmanagerNotifier, alertmanagerTargetShape } from './add-alertmanager-notifier';
export { alertmanagerAlerts } from './alertmanager-alerts';
