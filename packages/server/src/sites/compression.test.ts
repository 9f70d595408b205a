import { createServer, get, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  insertPage,
  newSpaceContent,
} from "../change-requests/testing.js";

let s: ContentScenario;
let server: Server;
beforeAll(async () => {
  s = await createContentScenario();
  server = createServer(s.t.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await s.t.close();
});

/** The raw answer to a GET, bytes as sent: no client here decompresses. */
function fetchRaw(path: string, encoding?: string): Promise<{ res: IncomingMessage; bytes: Buffer }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    get(
      { host: "127.0.0.1", port, path, headers: encoding ? { "accept-encoding": encoding } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ res, bytes: Buffer.concat(chunks) }));
      },
    ).on("error", reject);
  });
}

describe("published pages over the wire", () => {
  it("go out compressed with brotli or gzip as the reader's browser asks, the same page once decompressed", async () => {
    const content = await newSpaceContent(s);
    const cr = await content.createChangeRequest();
    await content.edit(cr.number, [
      insertPage("Guide", "A paragraph of the guide, long enough. ".repeat(200)),
    ]);
    await content.merge(cr.number);
    const site = (
      await s.t.request
        .post(`/v1/orgs/${s.organizationId}/sites`)
        .set(s.admin.auth)
        .send({ title: "Handbook", spaces: [content.spaceId] })
        .expect(201)
    ).body;
    await s.t.request
      .post(`/v1/orgs/${s.organizationId}/sites/${site.id}/publish`)
      .set(s.admin.auth)
      .expect(200);

    const plain = await fetchRaw(`/s/${site.id}/`);
    expect(plain.res.statusCode).toBe(200);
    expect(plain.res.headers["content-encoding"]).toBeUndefined();
    const html = plain.bytes.toString("utf8");
    expect(html).toContain("A paragraph of the guide");

    const brotli = await fetchRaw(`/s/${site.id}/`, "br");
    expect(brotli.res.headers["content-encoding"]).toBe("br");
    expect(brotli.res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(brotli.bytes).toString("utf8")).toBe(html);
    expect(brotli.bytes.length).toBeLessThan(plain.bytes.length / 4);

    const gzip = await fetchRaw(`/s/${site.id}/`, "gzip");
    expect(gzip.res.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.bytes).toString("utf8")).toBe(html);
  });
});
