import { randomBytes } from "node:crypto";
import { fromJson, type JsonText } from "../db/codecs.js";
import { decryptSecret, encryptSecrets } from "../integrations/index.js";

/**
 * The key that signs the tokens of a site's visitors (HS256): 32 random bytes, stored encrypted
 * under `QUIRE_SECRET_KEY` with the encryption of integration secrets (bound to the site's id), shown
 * only to the site's administrators and never logged.
 */
const KEY_NAME = "visitor-auth-key";

export function newVisitorAuthKey(): string {
  return randomBytes(32).toString("base64url");
}

export function sealVisitorAuthKey(
  secretKey: string,
  siteId: string,
  key: string,
): JsonText<Record<string, string>> {
  return encryptSecrets(secretKey, siteId, { [KEY_NAME]: key });
}

/**
 * The site's visitor key, or undefined when this server's secret key cannot open it: it was sealed
 * under another one (`QUIRE_SECRET_KEY` changed), and only a regenerated key works again.
 */
export function openVisitorAuthKey(
  secretKey: string,
  siteId: string,
  sealed: JsonText<Record<string, string>>,
): string | undefined {
  const stored = fromJson(sealed)[KEY_NAME];
  if (stored === undefined) throw new Error("The visitor authentication key of the site is missing.");
  try {
    return decryptSecret(secretKey, siteId, KEY_NAME, stored);
  } catch {
    return undefined;
  }
}

/** A share link's key: what a visitor presents in the `share` parameter. */
export function newShareKey(): string {
  return randomBytes(18).toString("base64url");
}
