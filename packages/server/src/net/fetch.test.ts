import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../config.js";
import { createFetcher, FetchError, parseAddressList, publicAddressesOnly } from "./fetch.js";
import { startTestServer, type TestServer } from "./test-server.js";

const LIMITS = { timeoutMs: 10_000, maxBytes: 1000 };
const loopback = createFetcher({ allowedPrivateAddresses: ["127.0.0.1"] });

let server: TestServer;
/** Requests the server saw, by path. */
const seen: string[] = [];
/** What POSTs to `/post` sent: their headers and body. */
const posted: { headers: Record<string, unknown>; body: string }[] = [];
beforeAll(async () => {
  server = await startTestServer(async (req, res) => {
    seen.push(req.url ?? "");
    if (req.method === "POST" && req.url === "/post") {
      let body = "";
      for await (const chunk of req) body += chunk;
      posted.push({ headers: req.headers, body });
      return res.writeHead(204).end();
    }
    if (req.method === "POST" && req.url === "/fail") return res.writeHead(500).end("x".repeat(100_000));
    if (req.url === "/doc") return res.end("hello");
    if (req.url === "/bytes")
      return res
        .writeHead(200, { "content-type": "Image/PNG; charset=binary" })
        .end(Buffer.from([0, 255, 1]));
    if (req.url === "/large") return res.end("x".repeat(1001));
    if (req.url === "/hop") return res.writeHead(302, { location: "/doc" }).end();
    if (req.url === "/loop") return res.writeHead(302, { location: "/loop" }).end();
    if (req.url === "/to-metadata")
      return res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" }).end();
    if (req.url === "/to-private") return res.writeHead(307, { location: "http://192.168.0.1/" }).end();
    if (req.url === "/slow") return; // never answers
    res.writeHead(404).end();
  });
});
afterAll(() => server.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("expected the fetch to fail"),
    (err: unknown) => err,
  );

describe("createFetcher", () => {
  it("fetches text and follows redirects, each hop through the policy", async () => {
    expect(await loopback.text(`${server.origin}/doc`, LIMITS)).toEqual({
      text: "hello",
      url: `${server.origin}/doc`,
    });
    expect(await loopback.text(`${server.origin}/hop`, LIMITS)).toEqual({
      text: "hello",
      url: `${server.origin}/doc`,
    });
  });

  it("fetches bytes as they are, with the answer's media type", async () => {
    expect(await loopback.bytes(`${server.origin}/bytes`, LIMITS)).toEqual({
      bytes: Buffer.from([0, 255, 1]),
      url: `${server.origin}/bytes`,
      contentType: "image/png",
    });
    expect((await loopback.bytes(`${server.origin}/hop`, LIMITS)).contentType).toBe("");
  });

  it("refuses loopback, private and link-local addresses unless allowed, by IP or by name", async () => {
    const strict = createFetcher(publicAddressesOnly);
    const before = seen.length;
    for (const url of [
      `${server.origin}/doc`,
      server.origin.replace("127.0.0.1", "localhost"),
      "http://10.1.2.3/",
      "http://[::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://0.0.0.0/",
    ]) {
      const err = await failure(strict.text(url, LIMITS));
      expect(err).toBeInstanceOf(FetchError);
      expect(err).toMatchObject({ timedOut: false, message: expect.stringMatching(/not allowed/) });
    }
    expect(seen.length).toBe(before);
  });

  it("names the host as given in a refusal, never the address it resolved to", async () => {
    const url = server.origin.replace("127.0.0.1", "localhost");
    const err = await failure(createFetcher(publicAddressesOnly).text(`${url}/`, LIMITS));
    expect(err).toMatchObject({ name: "FetchError", message: "The address of localhost is not allowed." });
  });

  it("refuses a redirect to an address the policy does not allow", async () => {
    for (const path of ["/to-metadata", "/to-private"]) {
      const err = await failure(loopback.text(`${server.origin}${path}`, LIMITS));
      expect(err).toMatchObject({ name: "FetchError", message: expect.stringMatching(/not allowed/) });
    }
  });

  it("fails on a non-2xx answer, too many redirects, a body over the limit and other schemes", async () => {
    for (const [url, message] of [
      [`${server.origin}/missing`, /answered 404/],
      [`${server.origin}/loop`, /More than 5 redirects/],
      [`${server.origin}/large`, /larger than 1000 bytes/],
      ["file:///etc/passwd", /Only http and https/],
    ] as const) {
      const err = await failure(loopback.text(url, LIMITS));
      expect(err).toBeInstanceOf(FetchError);
      expect((err as FetchError).message).toMatch(message);
    }
  });

  it("times out when no complete answer comes in time", async () => {
    const err = await failure(loopback.text(`${server.origin}/slow`, { ...LIMITS, timeoutMs: 200 }));
    expect(err).toMatchObject({ name: "FetchError", timedOut: true });
  });

  it("rejects with the signal's reason when aborted, not with a FetchError", async () => {
    const controller = new AbortController();
    const fetching = failure(
      loopback.text(`${server.origin}/slow`, { ...LIMITS, signal: controller.signal }),
    );
    const reason = new Error("stopping");
    controller.abort(reason);
    expect(await fetching).toBe(reason);
  });
});

describe("Fetcher.post", () => {
  const options = { headers: { "content-type": "application/json" }, timeoutMs: 10_000, maxBytes: 1000 };

  it("sends the body and headers, and answers the status and duration of any answer", async () => {
    const answer = await loopback.post(`${server.origin}/post`, '{"a":"é"}', options);
    expect(answer).toEqual({ status: 204, durationMs: expect.any(Number) });
    expect(posted.at(-1)).toMatchObject({
      headers: { "content-type": "application/json", "content-length": "10" },
      body: '{"a":"é"}',
    });
    // A failure status and a large body are answers: the body is read up to the limit and dropped.
    expect((await loopback.post(`${server.origin}/fail`, "{}", options)).status).toBe(500);
  });

  it("keeps the answer's head and whole body when asked, and refuses one over the limit", async () => {
    const kept = { ...options, keepAnswer: true, maxBytes: 200_000 };
    const hop = await loopback.post(`${server.origin}/hop`, "{}", kept);
    expect(hop).toMatchObject({ status: 302, answer: { headers: { location: "/doc" } } });
    const failed = await loopback.post(`${server.origin}/fail`, "{}", kept);
    expect(failed.answer?.body.toString()).toBe("x".repeat(100_000));
    const tooLarge = await failure(
      loopback.post(`${server.origin}/fail`, "{}", { ...kept, maxBytes: 99_999 }),
    );
    expect(tooLarge).toMatchObject({ name: "FetchError", message: "The answer is larger than 99999 bytes." });
  });

  it("does not follow redirects", async () => {
    const before = seen.length;
    expect((await loopback.post(`${server.origin}/hop`, "{}", options)).status).toBe(302);
    expect(seen.slice(before)).toEqual(["/hop"]);
  });

  it("refuses addresses the policy does not allow, and times out", async () => {
    const before = seen.length;
    const refused = await failure(
      createFetcher(publicAddressesOnly).post(`${server.origin}/post`, "{}", options),
    );
    expect(refused).toMatchObject({
      name: "FetchError",
      message: "The address of 127.0.0.1 is not allowed.",
    });
    expect(seen.length).toBe(before);
    const slow = await failure(loopback.post(`${server.origin}/slow`, "{}", { ...options, timeoutMs: 200 }));
    expect(slow).toMatchObject({ name: "FetchError", timedOut: true });
    const scheme = await failure(loopback.post("file:///etc/passwd", "{}", options));
    expect(scheme).toMatchObject({
      name: "FetchError",
      message: expect.stringMatching(/Only http and https/),
    });
  });
});

describe("parseAddressList", () => {
  it("reads IP addresses and CIDR ranges, and refuses anything else", () => {
    expect(parseAddressList(" 10.0.0.0/8, 192.168.1.20,fd00::/8 ,")).toEqual([
      "10.0.0.0/8",
      "192.168.1.20",
      "fd00::/8",
    ]);
    expect(parseAddressList("")).toEqual([]);
    for (const bad of ["intranet.local", "10.0.0.0/33", "::1/129", "10.0.0.0/8/1", "10.0.0.0/"])
      expect(() => parseAddressList(bad)).toThrow(/neither an IP address nor a CIDR range/);
  });

  it("is how QUIRE_FETCH_ALLOW_PRIVATE is read, a bad entry stopping the server from starting", () => {
    expect(configFromEnv({}).network).toEqual(publicAddressesOnly);
    expect(configFromEnv({ QUIRE_FETCH_ALLOW_PRIVATE: "10.0.0.0/8" }).network).toEqual({
      allowedPrivateAddresses: ["10.0.0.0/8"],
    });
    expect(() => configFromEnv({ QUIRE_FETCH_ALLOW_PRIVATE: "intranet" })).toThrow(
      /^QUIRE_FETCH_ALLOW_PRIVATE: "intranet" is neither/,
    );
  });
});
