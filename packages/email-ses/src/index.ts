export { createSesTransport, classifySesError, sesSendEmailInputOf } from './ses-transport';
export type { SesClient, SesSendEmailInput, SesTransportSettings } from './ses-transport';
export { sesV2Client } from './ses-v2-client';
export { sesTagValue, decodeSesTagValue, sesTagName } from './ses-tags';
