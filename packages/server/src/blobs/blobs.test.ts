import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { directoryBlobStore, sha256Of } from "./blobs.js";

const root = mkdtempSync(join(tmpdir(), "quire-blobs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("directoryBlobStore", () => {
  it("stores bytes once under their SHA-256 and reads them back", async () => {
    const store = directoryBlobStore(root);
    const bytes = Buffer.from("hello, files");
    const hash = await store.put(bytes);
    expect(hash).toBe(sha256Of(bytes));
    expect(await store.put(Buffer.from("hello, files"))).toBe(hash);
    expect(readdirSync(join(root, hash.slice(0, 2)))).toEqual([hash]);
    expect(Buffer.from((await store.get(hash)) ?? [])).toEqual(bytes);
  });

  it("answers undefined for bytes it does not hold, and refuses what is not a hash", async () => {
    const store = directoryBlobStore(root);
    expect(await store.get("0".repeat(64))).toBeUndefined();
    await expect(store.get("../../etc/passwd")).rejects.toThrow("not a SHA-256");
  });
});
