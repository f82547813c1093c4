import type { EventMessage } from '@corekit/eventing';

/** Distinct (channel, event type) pairs a template remembers before it starts over. */
const maxRemembered = 1024;

/**
 * Turns a destination template (a routing key, a topic) into a function of the message: `{channelId}` and
 * `{eventType}` are replaced by the message's. A template without placeholders is a constant; otherwise each
 * distinct pair is computed once (a few pairs serve a whole outbox).
 */
export function destinationTemplate(template: string): (message: EventMessage) => string {
  if (!template.includes('{channelId}') && !template.includes('{eventType}')) return () => template;
  const remembered = new Map<string, string>();
  return (message) => {
    const pair = `${message.channelId}\n${message.eventType}`;
    let destination = remembered.get(pair);
    if (destination === undefined) {
      destination = template
        .replaceAll('{channelId}', message.channelId)
        .replaceAll('{eventType}', message.eventType);
      if (remembered.size >= maxRemembered) remembered.clear();
      remembered.set(pair, destination);
    }
    return destination;
  };
}
