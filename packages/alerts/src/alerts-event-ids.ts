/** The alerts pack's event ids (range 3310-3329). */
export const alertsEventIds = {
  started: 3310,
  alertFired: 3311,
  alertResolved: 3312,
  blipRecorded: 3313,
  notificationStaged: 3314,
  deliveryDelivered: 3315,
  deliveryRetryScheduled: 3316,
  deliveryFailed: 3317,
  silenceCreated: 3318,
  silenceExpired: 3319,
  noNotifiers: 3320,
  evaluationFailed: 3321,
} as const;

export const alertsEventIdCatalog = {
  component: 'Alerts pack',
  ranges: [[3310, 3329]] as Array<[number, number]>,
  names: {
    3310: 'alerts-started',
    3311: 'alert-fired',
    3312: 'alert-resolved',
    3313: 'blip-recorded',
    3314: 'notification-staged',
    3315: 'delivery-delivered',
    3316: 'delivery-retry-scheduled',
    3317: 'delivery-failed',
    3318: 'silence-created',
    3319: 'silence-expired',
    3320: 'alerts-no-notifiers',
    3321: 'alerts-evaluation-failed',
  },
};
