import { GoogleAuth } from 'google-auth-library';
import type { GoogleCloudObservabilityOptions } from './google-cloud-observability-options';

/** The scope of the Telemetry API's write methods. */
const scopes = ['https://www.googleapis.com/auth/cloud-platform'];

/**
 * The `Authorization` header for each export, from `google-auth-library`: a self-signed JWT of the configured
 * service account (signed locally, no token endpoint), or Application Default Credentials' access token
 * (refreshed by the library before it expires).
 */
export function googleCloudAuthorization(
  settings: GoogleCloudObservabilityOptions,
): () => Promise<Record<string, string>> {
  const auth = new GoogleAuth({
    projectId: settings.ProjectId,
    scopes,
    ...(settings.ServiceAccountEmail && settings.ServiceAccountPrivateKey
      ? {
          credentials: {
            client_email: settings.ServiceAccountEmail,
            private_key: settings.ServiceAccountPrivateKey,
          },
          clientOptions: { useJWTAccessWithScope: true },
        }
      : {}),
  });
  return async () => {
    const client = await auth.getClient();
    const headers = await client.getRequestHeaders();
    const authorization = headers.get('authorization');
    return authorization ? { authorization } : {};
  };
}
