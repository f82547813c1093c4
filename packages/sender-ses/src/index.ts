export {
  addAmazonSesInvitationDelivery,
  sesSenderEventIds,
  sesV2Client,
} from './add-ses-invitation-delivery';
export type { SesInvitationDeliveryExtensions } from './add-ses-invitation-delivery';
export { sesSenderOptionsSchema } from './ses-options';
export type { SesSenderOptions, SesSenderOptionsInput } from './ses-options';
export { createSesSend } from './ses-sender';
export type { SesClient, SesSendEmailInput } from './ses-sender';
export { sesTagValue, decodeSesTagValue, sesTagName } from './ses-tags';
export { createSesTransport, classifySesError, sesSendEmailInputOf } from './ses-transport';
export type { SesTransportSettings } from './ses-transport';
