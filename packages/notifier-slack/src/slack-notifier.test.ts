import { notifierConformanceSuite } from '@corekit/testing/notifier-conformance';
import { startNotifierService } from '@corekit/testing/notifier-service';
import type { RecordedHttpRequest } from '@corekit/testing/http-fake-server';
import { addSlackNotifier } from './index';

const webhookPath = '/services/T0CONFORM/B0CONFORM/xoxConformanceSecret0123456789';

const blockTypes = new Set(['header', 'section', 'context', 'divider', 'actions', 'image', 'rich_text']);

/**
 * Answers as Slack's incoming webhooks do (api.slack.com/messaging/webhooks): 404 `no_service` for an unknown
 * hook path, 400 `invalid_payload` for a body that is not JSON with `text` or `blocks`, `invalid_blocks` for more
 * than 50 blocks, an unknown block type, a section text over 3000 or a header over 150 characters; 200 `ok`.
 */
function slackAnswer(request: RecordedHttpRequest) {
  const refuse = (status: number, body: string) => ({
    status,
    body,
    headers: { 'content-type': 'text/plain' },
  });
  if (request.method !== 'POST' || request.path !== webhookPath) return refuse(404, 'no_service');
  let message: { text?: unknown; blocks?: Array<{ type?: string; text?: { text?: string } }> };
  try {
    message = JSON.parse(request.body);
  } catch {
    return refuse(400, 'invalid_payload');
  }
  if (typeof message.text !== 'string' && !Array.isArray(message.blocks))
    return refuse(400, 'invalid_payload');
  const blocks = message.blocks ?? [];
  const bad = blocks.some(
    (block) =>
      !blockTypes.has(block.type ?? '') ||
      (block.type === 'section' && (block.text?.text?.length ?? 0) > 3000) ||
      (block.type === 'header' && (block.text?.text?.length ?? 0) > 150),
  );
  if (blocks.length > 50 || bad) return refuse(400, 'invalid_blocks');
  return { status: 200, body: 'ok', headers: { 'content-type': 'text/plain' } };
}

notifierConformanceSuite({
  kind: 'Slack',
  add: addSlackNotifier as never,
  startService: () => startNotifierService(slackAnswer),
  target: (url) => ({ Url: `${url}${webhookPath}` }),
  secret: 'xoxConformanceSecret0123456789',
  verify: (request, notification) => {
    const message = JSON.parse(request.body) as {
      text: string;
      blocks: Array<{ type: string; text?: { text: string } }>;
    };
    expect(message.blocks[0]).toMatchObject({ type: 'header', text: { text: notification.title } });
    const sections = message.blocks
      .filter((block) => block.type === 'section')
      .map((block) => block.text!.text);
    for (const alert of notification.alerts) {
      expect(
        sections.some(
          (text) =>
            text.includes(`\`${alert.dependencyId}\``) &&
            text.includes(alert.status === 'resolved' ? '*resolved*' : `*${alert.severity}*`),
        ),
      ).toBe(true);
      expect(message.text).toContain(alert.description);
    }
  },
});

it('a notification with 60 alerts stays within Slack limits', async () => {
  const { sampleNotification } = await import('@corekit/testing/notifier-conformance');
  const { slackMessage } = await import('./index');
  const base = sampleNotification();
  const many = {
    ...base,
    alerts: Array.from({ length: 60 }, (_, index) => ({
      ...base.alerts[0],
      alertId: `dependency:d${index}`,
      dependencyId: `d${index}`,
    })),
  };
  const message = slackMessage(many) as { blocks: unknown[] };
  expect(message.blocks.length).toBeLessThanOrEqual(50);
  expect(
    slackAnswer({ method: 'POST', path: webhookPath, body: JSON.stringify(message) } as RecordedHttpRequest)
      .status,
  ).toBe(200);
});
