import { OperationError } from '@corekit/abstractions';
import type { InvitationSender, InvitationSenderRegistry } from './delivery-seams';

const senderIdPattern = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** The sender registry: unique ids, registration order kept. Instance state, one per registration. */
export class SenderRegistry implements InvitationSenderRegistry {
  private readonly senders = new Map<string, InvitationSender>();

  add(sender: InvitationSender): void {
    if (!senderIdPattern.test(sender.id)) {
      throw new OperationError(
        'invalid-input',
        'SENDER_ID_INVALID',
        `Sender id ${JSON.stringify(sender.id)} is not [a-z0-9][a-z0-9._-]*`,
      );
    }
    if (this.senders.has(sender.id)) {
      throw new OperationError(
        'conflict',
        'SENDER_ALREADY_REGISTERED',
        `A sender with id ${sender.id} is already registered`,
      );
    }
    this.senders.set(sender.id, sender);
  }

  list(): readonly InvitationSender[] {
    return [...this.senders.values()];
  }
}
