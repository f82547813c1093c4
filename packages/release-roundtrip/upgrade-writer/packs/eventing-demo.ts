import type { EngineBuilder } from '@corekit/abstractions';
import {
  addEventing,
  declareEventing,
  type EventingOptionsInput,
  type EventingRegistration,
} from '@corekit/eventing';

/**
 * Registers the eventing pack with a `storefront` module that declares channel `orders` and two
 * subscriptions, on the embedded outbox lane (engine store, no server): a publication is accepted as staged,
 * then the dispatch job delivers it to both subscriptions. `send-confirmation` always succeeds;
 * `update-loyalty` fails its first attempt when the payload says `"flaky": true`, so the retry is visible on
 * the readiness entry, and fails every attempt with `"fail": true`, so the dispatch retries and then turns
 * terminal (`/engine/event-dispatches/terminal-failures`).
 */
export function addEventingDemo(
  builder: EngineBuilder,
  options: EventingOptionsInput = {},
): EventingRegistration {
  builder.addModule({
    id: 'storefront',
    version: '1.0.0',
    displayName: 'Storefront (eventing demo)',
    capabilities: ['orders.publish'],
  });
  declareEventing(builder, {
    moduleId: 'storefront',
    channels: [
      {
        id: 'orders',
        displayName: 'Order events',
        description: 'Events of the order lifecycle',
        eventTypes: ['order-placed', 'order-cancelled'],
      },
    ],
    subscriptions: [
      {
        id: 'send-confirmation',
        channelId: 'orders',
        displayName: 'Send the order confirmation',
        eventTypes: ['order-placed'],
        execute: () => undefined,
      },
      {
        id: 'update-loyalty',
        channelId: 'orders',
        displayName: 'Update loyalty points',
        execute: ({ message, attempt }) => {
          const payload = (message.payload ?? {}) as { flaky?: boolean; fail?: boolean };
          if (payload.fail) throw new Error('loyalty service refused the update');
          if (payload.flaky && attempt === 1) throw new Error('loyalty service timed out');
        },
      },
    ],
    publishers: [{ id: 'storefront.checkout', displayName: 'Checkout', channelIds: ['orders'] }],
  });
  return addEventing(builder, {
    InProcessSubscriptionMaxAttempts: 2,
    InProcessSubscriptionRetryDelayMilliseconds: 200,
    EnableInProcessSubscriptionIdempotency: true,
    ...options,
    Outbox: {
      Enabled: true,
      DispatchIntervalMilliseconds: 500,
      MaxAttempts: 3,
      RetryDelayMilliseconds: 1000,
      SourceModuleId: 'storefront',
      ...options.Outbox,
    },
  });
}
