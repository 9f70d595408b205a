import { createHash } from "node:crypto";

/** The id of stored content: its SHA-256, 132 bits of it in base64url. */
export function contentHash(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}
