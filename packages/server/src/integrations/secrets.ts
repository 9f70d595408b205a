import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { type JsonText, toJson } from "../db/codecs.js";

/**
 * Integration secrets at rest: AES-256-GCM under a key derived from `QUIRE_SECRET_KEY` by HKDF, a
 * random IV per value, and the integration and secret name as associated data, so that a value
 * copied to another row or name no longer decrypts. Stored as `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
const VERSION = "v1";
const SALT = "quire/integration-secrets";
const IV_BYTES = 12;

const derivedKeys = new Map<string, Buffer>();

function keyFrom(secretKey: string): Buffer {
  let key = derivedKeys.get(secretKey);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secretKey, SALT, "aes-256-gcm", 32));
    derivedKeys.set(secretKey, key);
  }
  return key;
}

const associatedData = (integrationId: string, name: string) => Buffer.from(`${integrationId}\n${name}`);

/** One secret value, encrypted for storage under the integration and name. */
export function encryptSecret(secretKey: string, integrationId: string, name: string, value: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyFrom(secretKey), iv);
  cipher.setAAD(associatedData(integrationId, name));
  const ciphertext = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** The value `encryptSecret` stored; throws when it was altered or encrypted under another key. */
export function decryptSecret(
  secretKey: string,
  integrationId: string,
  name: string,
  stored: string,
): string {
  const [version, iv, tag, ciphertext] = stored.split(".");
  if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined)
    throw new Error("Not an encrypted integration secret.");
  const decipher = createDecipheriv("aes-256-gcm", keyFrom(secretKey), Buffer.from(iv, "base64url"));
  decipher.setAAD(associatedData(integrationId, name));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
    "utf8",
  );
}

/** Every secret of a publication, encrypted for storage: the `secrets` column. */
export function encryptSecrets(
  secretKey: string,
  integrationId: string,
  secrets: Record<string, string>,
): JsonText<Record<string, string>> {
  return toJson(
    Object.fromEntries(
      Object.entries(secrets).map(([name, value]) => [
        name,
        encryptSecret(secretKey, integrationId, name, value),
      ]),
    ),
  );
}
