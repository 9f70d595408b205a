import { S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../net/test-server.js";
import { sha256Of } from "./blobs.js";
import { s3BlobStore } from "./s3.js";

/**
 * An S3-compatible service reduced to what the store uses, over HTTP: path-style HEAD, GET and PUT
 * of objects, S3's 404 answers (HEAD without a body, GET with a `NoSuchKey` error document).
 * Signatures are not checked; every request is recorded.
 */
const objects = new Map<string, Buffer>();
const requests: string[] = [];
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(async (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const key = decodeURIComponent(new URL(req.url ?? "", "http://s3.test").pathname);
    if (req.method === "PUT") {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      objects.set(key, Buffer.concat(chunks));
      return res.writeHead(200, { etag: '"x"' }).end();
    }
    const object = objects.get(key);
    if (!object) {
      if (req.method === "HEAD") return res.writeHead(404).end();
      return res
        .writeHead(404, { "content-type": "application/xml" })
        .end(`<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>No such key</Message></Error>`);
    }
    res.writeHead(200, { "content-length": object.byteLength, "content-type": "application/octet-stream" });
    res.end(req.method === "HEAD" ? undefined : object);
  });
});
afterAll(() => server.close());

const store = () =>
  s3BlobStore(
    { bucket: "quire", endpoint: server.origin, region: "us-east-1", prefix: "blobs/" },
    new S3Client({
      region: "us-east-1",
      endpoint: server.origin,
      forcePathStyle: true,
      credentials: { accessKeyId: "test", secretAccessKey: "test" },
    }),
  );

describe("s3BlobStore", () => {
  it("puts bytes once under their SHA-256 in the bucket's prefix and reads them back", async () => {
    const bytes = Buffer.from("hello, bucket");
    const hash = sha256Of(bytes);
    expect(await store().put(bytes)).toBe(hash);
    expect(objects.get(`/quire/blobs/${hash}`)).toEqual(bytes);
    expect(Buffer.from((await store().get(hash)) ?? [])).toEqual(bytes);
    // The same bytes again: the object is there, nothing is uploaded.
    const before = requests.filter((r) => r.startsWith("PUT")).length;
    expect(await store().put(Buffer.from("hello, bucket"))).toBe(hash);
    expect(requests.filter((r) => r.startsWith("PUT")).length).toBe(before);
  });

  it("answers undefined for an object the bucket does not hold", async () => {
    expect(await store().get("0".repeat(64))).toBeUndefined();
  });
});
