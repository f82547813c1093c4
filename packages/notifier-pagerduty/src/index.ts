export { addPagerDutyNotifier, pagerDutyTargetShape } from './add-pagerduty-notifier';
export { pagerDutyEvent, pagerDutySeverity } from './pagerduty-event';
