import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** Where file bytes live, addressed by their SHA-256: the same bytes are stored once. */
export interface BlobStore {
  /** Stores the bytes (a no-op when they are there already) and answers their hex SHA-256. */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes stored under this hash, or undefined. */
  get(sha256: string): Promise<Uint8Array | undefined>;
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

const HASH = /^[0-9a-f]{64}$/;

/** Blobs as files of a directory, `ab/abcdef…`, written through a temporary file so a reader never sees half. */
export function directoryBlobStore(root: string): BlobStore {
  const pathOf = (sha256: string) => {
    if (!HASH.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
    return join(root, sha256.slice(0, 2), sha256);
  };
  return {
    async put(bytes) {
      const sha256 = sha256Of(bytes);
      const path = pathOf(sha256);
      const existing = await stat(path).catch(() => undefined);
      if (existing?.size === bytes.byteLength) return sha256;
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${randomUUID()}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, path);
      return sha256;
    },
    async get(sha256) {
      try {
        return await readFile(pathOf(sha256));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw err;
      }
    },
  };
}
