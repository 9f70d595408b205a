import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NetworkPolicy } from "./fetch.js";
import {
  createGitClient,
  type GitClient,
  GitError,
  type GitRemote,
  isAllowedAddress,
  PACK_LIMIT,
  redactUrl,
} from "./git.js";
import { type GitServer, startGitServer } from "./git-server.js";
import { startTestServer } from "./test-server.js";

const auth = { username: "sync-bot", password: "s3cret-Pa55word" };
const loopback: NetworkPolicy = { allowedPrivateAddresses: ["127.0.0.1"] };
const limits = { timeoutMs: 20_000, maxBytes: 64 * 1024 * 1024 };
const author = { name: "Ada Writer", email: "ada@example.com" };

/** What `git hash-object` says of `bytes`. */
function hashObject(bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile("git", ["hash-object", "--stdin"], (err, stdout) =>
      err ? reject(err) : resolve(stdout.trim()),
    );
    child.stdin?.end(bytes);
  });
}

/** Whether the cache in `gitDir` holds `oid`. */
function hasObject(gitDir: string, oid: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile("git", ["cat-file", "-e", oid], { env: { PATH: process.env.PATH, GIT_DIR: gitDir } }, (err) =>
      resolve(!err),
    );
  });
}

/** The GitError `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<GitError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof GitError) return err;
    throw err;
  }
  throw new Error("expected a GitError");
}

let server: GitServer;
let cache: string;
let git: GitClient;
let keys = 0;
const key = () => `space-${++keys}`;
const remote = (name: string, credentials = auth): GitRemote => ({
  url: server.url(name),
  credentials,
  ref: "refs/heads/main",
});

beforeAll(async () => {
  server = await startGitServer(auth);
  cache = await mkdtemp(join(tmpdir(), "quire-git-cache-"));
  git = createGitClient({ cacheDirectory: cache, policy: loopback });
});

afterAll(async () => {
  await server?.close();
  if (cache) await rm(cache, { recursive: true, force: true });
});

describe("fetch", () => {
  it("reads every file of the ref's tree, nested and binary, with git's oids", async () => {
    const binary = randomBytes(3000);
    const commit = await server.createRepository("docs", {
      "README.md": "# Hello\n",
      "SUMMARY.md": "* [Hello](README.md)\n",
      "guide/setup/install.md": "Install it.\n",
      ".gitbook/assets/logo.png": binary,
    });
    const tree = await git.fetch(key(), remote("docs"), limits);
    expect(tree.commit).toBe(commit);
    expect([...tree.files.keys()].sort()).toEqual([
      ".gitbook/assets/logo.png",
      "README.md",
      "SUMMARY.md",
      "guide/setup/install.md",
    ]);
    const logo = tree.files.get(".gitbook/assets/logo.png");
    expect(logo?.bytes.equals(binary)).toBe(true);
    expect(logo?.oid).toBe(await hashObject(binary));
    expect(tree.files.get("guide/setup/install.md")?.bytes.toString()).toBe("Install it.\n");
    expect(tree.files.get("README.md")?.oid).toBe(await hashObject(Buffer.from("# Hello\n")));
  });

  it("answers commit null for an empty repository", async () => {
    await server.createEmptyRepository("empty");
    const tree = await git.fetch(key(), remote("empty"), limits);
    expect(tree).toEqual({ commit: null, files: new Map() });
  });

  it("brings a newer commit on a second fetch into the same cache", async () => {
    const space = key();
    await server.createRepository("moving", { "a.md": "one\n" });
    const first = await git.fetch(space, remote("moving"), limits);
    const second = await server.commitFiles("moving", { "a.md": "two\n", "b.md": "new\n" }, "Edit");
    const tree = await git.fetch(space, remote("moving"), limits);
    expect(tree.commit).toBe(second);
    expect(tree.commit).not.toBe(first.commit);
    expect(tree.files.get("a.md")?.bytes.toString()).toBe("two\n");
    expect(tree.files.get("b.md")?.bytes.toString()).toBe("new\n");
  });

  it("reaches a host by name, pinned to the addresses it was checked at", async () => {
    const commit = await server.createRepository("named", { "a.md": "a\n" });
    const local = createGitClient({
      cacheDirectory: cache,
      policy: { allowedPrivateAddresses: ["127.0.0.0/8", "::1"] },
    });
    const url = server.url("named").replace("127.0.0.1", "localhost");
    expect((await local.fetch(key(), { ...remote("named"), url }, limits)).commit).toBe(commit);
  });

  it("runs operations on one key one after the other", async () => {
    const space = key();
    const commit = await server.createRepository("parallel", { "a.md": "a\n" });
    const trees = await Promise.all([1, 2, 3].map(() => git.fetch(space, remote("parallel"), limits)));
    expect(trees.map((tree) => tree.commit)).toEqual([commit, commit, commit]);
  });

  it("is not_found for a missing branch of a repository that has commits", async () => {
    await server.createRepository("branchless", { "a.md": "a\n" });
    const err = await failure(git.fetch(key(), { ...remote("branchless"), ref: "refs/heads/nope" }, limits));
    expect(err.kind).toBe("not_found");
  });
});

describe("commit", () => {
  it("pushes one changed file as a commit by the author", async () => {
    const space = key();
    const start = await server.createRepository("edit", { "README.md": "# A\n", "docs/b.md": "b\n" });
    await git.fetch(space, remote("edit"), limits);
    const result = await git.commit(
      space,
      remote("edit"),
      { parent: start, changes: new Map([["docs/b.md", Buffer.from("B!\n")]]), message: "Update b", author },
      limits,
    );
    expect(result.created).toBe(true);
    expect(await server.head("edit")).toBe(result.commit);
    expect(await server.changedPaths("edit", result.commit)).toEqual(["docs/b.md"]);
    expect(await server.author("edit", result.commit)).toEqual({
      name: "Ada Writer",
      email: "ada@example.com",
      committer: "Quire",
      message: "Update b",
    });
    const files = await server.readFiles("edit");
    expect(files["docs/b.md"]?.toString()).toBe("B!\n");
    expect(files["README.md"]?.toString()).toBe("# A\n");

    // The next commit builds on the pushed one, from the cache; a deletion too.
    const next = await git.commit(
      space,
      remote("edit"),
      { parent: result.commit, changes: new Map([["README.md", null]]), message: "Remove", author },
      limits,
    );
    expect(await server.changedPaths("edit", next.commit)).toEqual(["README.md"]);
    expect(Object.keys(await server.readFiles("edit"))).toEqual(["docs/b.md"]);
  });

  it("makes no commit when nothing changes", async () => {
    const space = key();
    const start = await server.createRepository("same", { "a.md": "a\n" });
    const result = await git.commit(
      space,
      remote("same"),
      { parent: start, changes: new Map([["a.md", Buffer.from("a\n")]]), message: "Nothing", author },
      limits,
    );
    expect(result).toEqual({ commit: start, created: false });
    expect(await server.head("same")).toBe(start);
    expect(await server.commitCount("same")).toBe(1);
  });

  it("makes a root commit on an empty repository", async () => {
    const space = key();
    await server.createEmptyRepository("fresh");
    const result = await git.commit(
      space,
      remote("fresh"),
      { parent: null, changes: new Map([["README.md", Buffer.from("# New\n")]]), message: "First", author },
      limits,
    );
    expect(result.created).toBe(true);
    expect(await server.head("fresh")).toBe(result.commit);
    expect((await server.readFiles("fresh"))["README.md"]?.toString()).toBe("# New\n");
  });

  it("is rejected when the branch moved on, and pushes with force", async () => {
    const space = key();
    const start = await server.createRepository("race", { "a.md": "a\n" });
    await git.fetch(space, remote("race"), limits);
    const theirs = await server.commitFiles("race", { "b.md": "theirs\n" }, "Developer's edit");
    const args = {
      parent: start,
      changes: new Map([["a.md", Buffer.from("ours\n")]]),
      message: "Ours",
      author,
    };
    const err = await failure(git.commit(space, remote("race"), args, limits));
    expect(err.kind).toBe("rejected");
    expect(await server.head("race")).toBe(theirs);

    const forced = await git.commit(space, remote("race"), { ...args, force: true }, limits);
    expect(forced.created).toBe(true);
    expect(await server.head("race")).toBe(forced.commit);
    expect((await server.readFiles("race"))["a.md"]?.toString()).toBe("ours\n");
  });
});

describe("errors", () => {
  it("is auth for a wrong password, which appears nowhere in the error", async () => {
    await server.createRepository("private", { "a.md": "a\n" });
    const wrong = { username: auth.username, password: "wrong-Pa55word-xyz" };
    const err = await failure(git.fetch(key(), remote("private", wrong), limits));
    expect(err.kind).toBe("auth");
    expect(err.message).toBe("The repository refused the credentials.");
    expect(`${err.message} ${err.stack}`).not.toContain("wrong-Pa55word-xyz");
    expect(`${err.message} ${err.stack}`).not.toContain(
      Buffer.from(`${auth.username}:wrong`).toString("base64"),
    );

    const pushErr = await failure(
      git.commit(
        key(),
        remote("private", wrong),
        { parent: null, changes: new Map([["x.md", Buffer.from("x")]]), message: "x", author, force: true },
        limits,
      ),
    );
    expect(pushErr.kind).toBe("auth");
  });

  it("is auth without credentials", async () => {
    await server.createRepository("private2", { "a.md": "a\n" });
    const { credentials: _, ...anonymous } = remote("private2");
    const err = await failure(git.fetch(key(), anonymous, limits));
    expect(err.kind).toBe("auth");
  });

  it("is not_found for an unknown repository", async () => {
    const err = await failure(git.fetch(key(), remote("nobody-here"), limits));
    expect(err.kind).toBe("not_found");
  });

  it("is unreachable on a port nobody listens on", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(
      git.fetch(key(), { url: `http://127.0.0.1:${port}/x.git`, ref: "refs/heads/main" }, limits),
    );
    expect(err.kind).toBe("unreachable");
    // The host as the user gave it, nothing git or curl added.
    expect(err.message).toBe("Could not connect to 127.0.0.1.");
  });

  it("is unreachable for a host that does not resolve", async () => {
    const err = await failure(
      git.fetch(key(), { url: "http://quire-no-such-host.invalid/x.git", ref: "refs/heads/main" }, limits),
    );
    expect(err.kind).toBe("unreachable");
  });

  it("is not_allowed for loopback outside the policy, before git runs", async () => {
    await server.createRepository("guarded", { "a.md": "a\n" });
    const strict = createGitClient({ cacheDirectory: cache, policy: { allowedPrivateAddresses: [] } });
    const before = server.requests.length;
    const err = await failure(strict.fetch(key(), remote("guarded"), limits));
    expect(err.kind).toBe("not_allowed");
    expect(err.message).toBe("The address of 127.0.0.1 is not allowed.");
    // localhost resolves to loopback: refused, and the message names the host only.
    const named = await failure(
      strict.fetch(
        key(),
        { ...remote("guarded"), url: server.url("guarded").replace("127.0.0.1", "localhost") },
        limits,
      ),
    );
    expect(named.kind).toBe("not_allowed");
    expect(named.message).toBe("The address of localhost is not allowed.");
    expect(server.requests.length).toBe(before);
  });

  it("is not_allowed for a scheme other than http(s)", async () => {
    for (const url of ["file:///etc/x.git", "ssh://example.com/x.git", "ext::sh -c touch% /tmp/pwned"]) {
      const err = await failure(git.fetch(key(), { url, ref: "refs/heads/main" }, limits));
      expect(err.kind).toBe("not_allowed");
    }
  });

  it("is too_large when the pack outgrows maxBytes", async () => {
    await server.createRepository("big", { "big.bin": randomBytes(2 * 1024 * 1024), "a.md": "a\n" });
    const space = key();
    const err = await failure(git.fetch(space, remote("big"), { timeoutMs: 20_000, maxBytes: 256 * 1024 }));
    expect(err.kind).toBe("too_large");
    // Nothing the killed fetch left stands in the way of one within a larger limit.
    const tree = await git.fetch(space, remote("big"), { timeoutMs: 20_000, maxBytes: 8 * 1024 * 1024 });
    expect(tree.files.get("big.bin")?.bytes.length).toBe(2 * 1024 * 1024);
  });

  describe("with a server that never answers", () => {
    let silent: Server;
    const sockets: Socket[] = [];
    beforeAll(async () => {
      silent = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it("is timeout, within the limit", async () => {
      const { port } = silent.address() as { port: number };
      const started = Date.now();
      const err = await failure(
        git.fetch(
          key(),
          { url: `http://127.0.0.1:${port}/x.git`, ref: "refs/heads/main" },
          {
            timeoutMs: 1500,
            maxBytes: 1024 * 1024,
          },
        ),
      );
      expect(err.kind).toBe("timeout");
      expect(Date.now() - started).toBeLessThan(3000);
    });
  });
});

describe("redirects", () => {
  /** A loopback server answering a request with a 301 to `to(path)`, or a 200 without it; what it received. */
  const redirector = async (to: (path: string) => string | undefined) => {
    const received: { path: string; authorization?: string }[] = [];
    const redirecting = await startTestServer((req, res) => {
      received.push({ path: req.url ?? "", authorization: req.headers.authorization });
      const location = to(req.url ?? "");
      if (location === undefined) res.end("Not Git");
      else res.writeHead(301, { location }).end();
    });
    return { ...redirecting, received };
  };

  it("follows a renamed repository on the same server, with the credentials, for fetch and push", async () => {
    const start = await server.createRepository("renamed", { "a.md": "a\n" });
    server.moveRepository("before-rename", "renamed");
    const space = key();
    const tree = await git.fetch(space, remote("before-rename"), limits);
    expect(tree.commit).toBe(start);
    expect(tree.url).toBe(server.url("renamed"));
    expect(tree.files.get("a.md")?.bytes.toString()).toBe("a\n");

    // The parent is in the cache: the push is the operation's first request, and is redirected.
    const result = await git.commit(
      space,
      remote("before-rename"),
      { parent: start, changes: new Map([["a.md", Buffer.from("b\n")]]), message: "Edit", author },
      limits,
    );
    expect(result).toEqual({ commit: expect.any(String), created: true, url: server.url("renamed") });
    expect(await server.head("renamed")).toBe(result.commit);
    expect(server.requests).toContain("GET /before-rename.git/info/refs?service=git-receive-pack");

    // At the final URL, nothing to report.
    expect((await git.fetch(space, remote("renamed"), limits)).url).toBeUndefined();
  });

  it("follows a redirect to another server by name, pinned, there without the credentials", async () => {
    const start = await server.createRepository("public-home", { "a.md": "a\n" });
    server.publishRepository("public-home");
    const home = server.url("public-home").replace("127.0.0.1", "localhost");
    const redirecting = await redirector((path) => `${home}${path.replace(/^\/old\.git/, "")}`);
    // localhost may resolve to ::1 as well as 127.0.0.1.
    const local = createGitClient({
      cacheDirectory: cache,
      policy: { allowedPrivateAddresses: ["127.0.0.0/8", "::1"] },
    });
    try {
      const old = { ...remote("public-home"), url: `${redirecting.origin}/old.git` };
      const space = key();
      const tree = await local.fetch(space, old, limits);
      expect(tree.commit).toBe(start);
      expect(tree.url).toBe(home);
      const result = await local.commit(
        space,
        old,
        { parent: start, changes: new Map([["b.md", Buffer.from("b\n")]]), message: "Add b", author },
        limits,
      );
      expect(result.url).toBe(home);
      expect(await server.head("public-home")).toBe(result.commit);
      // The given URL's origin gets the credentials.
      expect(redirecting.received.every((request) => request.authorization !== undefined)).toBe(true);
    } finally {
      await redirecting.close();
    }
  });

  it("sends no credentials to the origin a redirect leads to", async () => {
    const recorded: (string | undefined)[] = [];
    const recording = await startTestServer((req, res) => {
      recorded.push(req.headers.authorization);
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"' }).end();
    });
    const redirecting = await redirector(
      (path) => `${recording.origin}/new.git${path.replace(/^\/old\.git/, "")}`,
    );
    try {
      const err = await failure(
        git.fetch(key(), { ...remote("x"), url: `${redirecting.origin}/old.git` }, limits),
      );
      expect(err.kind).toBe("auth");
      // The discovery's request and git's retried one, both anonymous.
      expect(recorded.length).toBeGreaterThanOrEqual(2);
      expect(recorded.every((authorization) => authorization === undefined)).toBe(true);
    } finally {
      await redirecting.close();
      await recording.close();
    }
  });

  it("is not_allowed for a redirect to a private address, reaching nothing", async () => {
    for (const [target, host] of [
      ["http://10.255.255.1/x.git", "10.255.255.1"],
      ["http://169.254.169.254/latest", "169.254.169.254"],
    ]) {
      const before = server.requests.length;
      const redirecting = await redirector((path) => `${target}${path.replace(/^\/old\.git/, "")}`);
      try {
        const started = Date.now();
        const err = await failure(
          git.fetch(key(), { ...remote("x"), url: `${redirecting.origin}/old.git` }, limits),
        );
        expect(err.kind).toBe("not_allowed");
        expect(err.message).toBe(`The address of ${host} is not allowed.`);
        // Git's request and the discovery's, both to the redirecting server; no connection attempt
        // to the unroutable address (it would hang until the time limit).
        expect(redirecting.received.map((request) => request.path)).toEqual([
          "/old.git/info/refs?service=git-upload-pack",
          "/old.git/info/refs?service=git-upload-pack",
        ]);
        expect(Date.now() - started).toBeLessThan(limits.timeoutMs / 2);
        expect(server.requests.length).toBe(before);
      } finally {
        await redirecting.close();
      }
    }
  });

  it("fails clearly on a loop, on too many redirects, and on a redirect away from a repository", async () => {
    const redirecting = await redirector((path) => {
      const [, name = "", rest = ""] = /^\/([^/]+)\.git(.*)$/.exec(path) ?? [];
      const chain = /^chain-(\d+)$/.exec(name);
      if (chain) return `/chain-${Number(chain[1]) + 1}.git${rest}`;
      if (name === "loop-a") return `/loop-b.git${rest}`;
      if (name === "loop-b") return `/loop-a.git${rest}`;
      return name === "away" ? "/somewhere-else" : undefined;
    });
    const at = (name: string) => ({ ...remote("x"), url: `${redirecting.origin}/${name}.git` });
    try {
      const loop = await failure(git.fetch(key(), at("loop-a"), limits));
      expect([loop.kind, loop.message]).toEqual(["failed", "The server redirects the request in a loop."]);

      const chain = await failure(git.fetch(key(), at("chain-0"), limits));
      expect([chain.kind, chain.message]).toEqual([
        "failed",
        "The server redirected the request more than 5 times.",
      ]);
      // Git's request, then the discovery's first and its 5 redirects followed.
      expect(redirecting.received.filter((request) => request.path.startsWith("/chain-")).length).toBe(7);

      const away = await failure(git.fetch(key(), at("away"), limits));
      expect(away.kind).toBe("failed");
      expect(away.message).toMatch(/other than a Git repository/);
    } finally {
      await redirecting.close();
    }
  });
});

describe("the cache", () => {
  it("is repacked when fetches left too many packs, and still fetches and commits", {
    timeout: 90_000,
  }, async () => {
    const space = key();
    const first = await server.createRepository("growing", { "n.md": "0\n" });
    let tree = await git.fetch(space, remote("growing"), limits);
    const gitDir = join(cache, (await readdir(cache)).find((name) => name.startsWith(`${space}-`)) ?? "");
    const packs = async () =>
      (await readdir(join(gitDir, "objects", "pack"))).filter((name) => /^pack-.*\.pack$/.test(name)).length;

    let most = 0;
    for (let i = 1; i <= PACK_LIMIT + 5; i++) {
      const commit = await server.commitFiles(
        "growing",
        { "n.md": `${i}\n`, [`f-${i}.md`]: "f\n" },
        `Edit ${i}`,
      );
      tree = await git.fetch(space, remote("growing"), limits);
      expect(tree.commit).toBe(commit);
      most = Math.max(most, await packs());
    }
    expect(most).toBeLessThanOrEqual(PACK_LIMIT + 1);
    expect(await packs()).toBeLessThan(PACK_LIMIT);
    expect(tree.files.get("n.md")?.bytes.toString()).toBe(`${PACK_LIMIT + 5}\n`);
    expect(tree.files.size).toBe(PACK_LIMIT + 6);
    // What the cache's ref no longer reaches went with the repack.
    expect(await hasObject(gitDir, first)).toBe(false);

    const result = await git.commit(
      space,
      remote("growing"),
      { parent: tree.commit, changes: new Map([["n.md", Buffer.from("ours\n")]]), message: "Ours", author },
      limits,
    );
    expect(await server.head("growing")).toBe(result.commit);
    expect(await server.changedPaths("growing", result.commit)).toEqual(["n.md"]);
    const theirs = await server.commitFiles("growing", { "x.md": "x\n" }, "Theirs");
    const after = await git.fetch(space, remote("growing"), limits);
    expect(after.commit).toBe(theirs);
    expect(after.files.get("n.md")?.bytes.toString()).toBe("ours\n");
  });
});

describe("a 1,000-file repository", () => {
  it("fetches, then commits one change", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1000; i++)
      files[`docs/section-${i % 20}/page-${i}.md`] = `# Page ${i}\n\n${"text ".repeat(50)}\n`;
    const start = await server.createRepository("large", files);
    const space = key();

    let t = performance.now();
    const tree = await git.fetch(space, remote("large"), limits);
    console.log(`1,000-file fetch: ${Math.round(performance.now() - t)} ms`);
    expect(tree.commit).toBe(start);
    expect(tree.files.size).toBe(1000);

    t = performance.now();
    const result = await git.commit(
      space,
      remote("large"),
      {
        parent: start,
        changes: new Map([["docs/section-3/page-3.md", Buffer.from("# Changed\n")]]),
        message: "One change",
        author,
      },
      limits,
    );
    console.log(`1,000-file commit of one change: ${Math.round(performance.now() - t)} ms`);
    expect(await server.changedPaths("large", result.commit)).toEqual(["docs/section-3/page-3.md"]);
    expect(await server.commitCount("large")).toBe(2);
  });
});

describe("redactUrl", () => {
  it("takes user and password out", () => {
    expect(redactUrl("https://bot:s3cret@git.example.com/a/b.git")).toBe("https://git.example.com/a/b.git");
    expect(redactUrl("https://token@git.example.com/a.git")).toBe("https://git.example.com/a.git");
    expect(redactUrl("https://git.example.com/a.git")).toBe("https://git.example.com/a.git");
    expect(redactUrl("http://u:p@[::1")).toBe("http://[::1");
  });
});

describe("isAllowedAddress", () => {
  it("refuses every non-public address unless listed", () => {
    const none: NetworkPolicy = { allowedPrivateAddresses: [] };
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "198.18.0.1",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1",
    ])
      expect([address, isAllowedAddress(address, none)]).toEqual([address, false]);
    expect(isAllowedAddress("93.184.216.34", none)).toBe(true);
    expect(isAllowedAddress("2606:2800:220:1:248:1893:25c8:1946", none)).toBe(true);
    const lan: NetworkPolicy = { allowedPrivateAddresses: ["10.0.0.0/8", "::1"] };
    expect(isAllowedAddress("10.9.9.9", lan)).toBe(true);
    expect(isAllowedAddress("::ffff:10.9.9.9", lan)).toBe(true);
    expect(isAllowedAddress("::1", lan)).toBe(true);
    expect(isAllowedAddress("192.168.0.1", lan)).toBe(false);
  });
});
