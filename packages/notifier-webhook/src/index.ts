export { addWebhookNotifier, webhookTargetShape } from './add-webhook-notifier';
export {
  signWebhook,
  standardWebhookHeaders,
  webhookSecretKey,
  webhookSecretPrefix,
} from './standard-webhooks';
