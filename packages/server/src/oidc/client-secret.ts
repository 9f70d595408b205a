import { fromJson, type JsonText } from "../db/codecs.js";
import { decryptSecret, encryptSecrets } from "../integrations/index.js";
import type { OidcProviderTable } from "./tables.js";

const NAME = "client_secret";

/** The client secret as stored: encrypted under the server key, bound to the provider. */
export function sealClientSecret(
  secretKey: string,
  providerId: string,
  secret: string,
): JsonText<Record<string, string>> {
  return encryptSecrets(secretKey, providerId, { [NAME]: secret });
}

/** The provider's client secret in clear, for the token request; undefined for a public client. */
export function openClientSecret(secretKey: string, provider: OidcProviderTable): string | undefined {
  if (provider.client_secret === null) return undefined;
  return decryptSecret(secretKey, provider.id, NAME, fromJson(provider.client_secret)[NAME] ?? "");
}
