import { emailOutcome } from '@corekit/email-kit';
import { emailSendResult } from './delivery-context';

describe('email transport outcomes as invitation send results', () => {
  it('maps an outcome to an invitation send result: delivered dispatched, both failures sender-failed and retryable', () => {
    expect(emailSendResult(emailOutcome.delivered(202, 'p-1', { s: 202 }), { senderId: 'x' }, 'm-1')).toEqual(
      {
        outcome: 'dispatched',
        providerMessageId: 'p-1',
        metadata: { senderId: 'x', s: 202 },
        messageId: 'm-1',
      },
    );
    for (const failure of [
      emailOutcome.retryable('timeout'),
      emailOutcome.terminal('smtp-status-550', {}, 550),
    ])
      expect(emailSendResult(failure, { senderId: 'x' })).toEqual({
        outcome: 'sender-failed',
        reason: failure.outcome === 'delivered' ? '' : failure.reason,
        retryable: true,
        metadata: { senderId: 'x' },
      });
  });
});
