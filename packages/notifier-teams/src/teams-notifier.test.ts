import { notifierConformanceSuite } from '@corekit/testing/notifier-conformance';
import { startNotifierService } from '@corekit/testing/notifier-service';
import type { RecordedHttpRequest } from '@corekit/testing/http-fake-server';
import { addTeamsNotifier } from './index';

const signature = 'ConformanceSig0123456789abcdefABCDEF';
const triggerPath = '/workflows/0c0ffee0/triggers/manual/paths/invoke';
const elementTypes = new Set(['TextBlock', 'FactSet', 'Container', 'ColumnSet', 'Image']);

/**
 * Answers as a Teams workflow webhook trigger does: 401 without the right `sig`; 400 when the body is not a
 * `message` whose attachments are Adaptive Cards (`application/vnd.microsoft.card.adaptive`, `type`
 * AdaptiveCard, a `version`, body elements of known types, every FactSet fact a title and a value); 202 otherwise.
 */
function teamsAnswer(request: RecordedHttpRequest) {
  if (request.method !== 'POST' || request.path !== triggerPath)
    return { status: 404, body: { error: { code: 'TriggerNotFound' } } };
  if (request.query.sig !== signature)
    return { status: 401, body: { error: { code: 'DirectApiAuthorizationRequired' } } };
  const bad = { status: 400, body: { error: { code: 'InvalidRequestContent' } } };
  let message: Record<string, any>;
  try {
    message = JSON.parse(request.body);
  } catch {
    return bad;
  }
  const attachments = message.attachments;
  if (message.type !== 'message' || !Array.isArray(attachments) || attachments.length === 0) return bad;
  for (const attachment of attachments) {
    const card = attachment.content;
    if (attachment.contentType !== 'application/vnd.microsoft.card.adaptive' || card?.type !== 'AdaptiveCard')
      return bad;
    if (typeof card.version !== 'string' || !Array.isArray(card.body)) return bad;
    for (const element of card.body) {
      if (!elementTypes.has(element.type)) return bad;
      if (
        element.type === 'FactSet' &&
        !element.facts.every((fact: any) => typeof fact.title === 'string' && typeof fact.value === 'string')
      )
        return bad;
    }
  }
  return { status: 202, body: '' };
}

notifierConformanceSuite({
  kind: 'Teams',
  add: addTeamsNotifier as never,
  startService: () => startNotifierService(teamsAnswer),
  target: (url) => ({
    Url: `${url}${triggerPath}?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${signature}`,
  }),
  secret: signature,
  verify: (request, notification) => {
    const card = JSON.parse(request.body).attachments[0].content;
    expect(card.body[0]).toMatchObject({ type: 'TextBlock', text: notification.title });
    const facts = card.body[1].facts as Array<{ title: string; value: string }>;
    expect(facts.map((fact) => fact.value)).toEqual(notification.alerts.map((alert) => alert.description));
    expect(facts[0].title).toBe(
      `${notification.status === 'resolved' ? 'resolved' : 'unhealthy'} · dependency inventory-api`,
    );
    expect(card.actions[0]).toMatchObject({ type: 'Action.OpenUrl', url: notification.links[0].url });
  },
});
