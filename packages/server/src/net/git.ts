import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { lookup } from "node:dns/promises";
import { access, mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { join } from "node:path";
import ipaddr from "ipaddr.js";
import type { NetworkPolicy } from "./fetch.js";

/**
 * Git Sync's transport: Debian's `git` in child processes (never on the event loop), one bare
 * repository per space as a cache. Every process runs isolated from the machine's Git configuration,
 * pinned to addresses checked against the network policy, with credentials in its environment only.
 */

type Credentials = { username: string; password: string };

export interface GitRemote {
  /** http(s) URL of the repository, without credentials. */
  url: string;
  credentials?: Credentials;
  /** e.g. "refs/heads/main" */
  ref: string;
}

export interface GitLimits {
  /** Whole operation (every git process of it). */
  timeoutMs: number;
  /**
   * Most bytes of files a fetch reads out of the tree (those under its `directory`: what is synced),
   * checked from the tree's listing before any is read, since a small pack can inflate enormously.
   */
  maxBytes: number;
  /**
   * Most bytes a fetch may bring into the cache (the pack of the whole commit), checked while it runs;
   * `maxBytes` when absent. Larger, so that a repository whose synced folder is small passes.
   */
  maxPackBytes?: number;
}

/** What a fetch reads of the tree. */
export interface FetchOptions {
  /** Only the files under this directory of the repository ("" or absent: all of them). */
  directory?: string;
}

export type GitErrorKind =
  | "auth"
  | "not_found"
  | "unreachable"
  | "not_allowed"
  | "too_large"
  | "timeout"
  | "rejected"
  | "failed";

/** Its message is safe to show a user: no credentials, no resolved private address. */
export class GitError extends Error {
  constructor(
    readonly kind: GitErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "GitError";
  }
}

export interface FetchedTree {
  /** The ref's commit; null when the ref does not exist yet (an empty repository). */
  commit: string | null;
  /** Every file of the commit's tree (under the fetch's `directory`), by path ("docs/README.md"), with its blob oid. */
  files: Map<string, { oid: string; bytes: Buffer }>;
  /**
   * The URL the repository was reached at when the server redirected to another one (a renamed
   * repository): worth keeping as the remote's URL. Absent when it was the remote's own.
   */
  url?: string;
}

export interface GitClient {
  /** Fetches `remote.ref` (shallow, depth 1) into the cache for `cacheKey` (a space id) and reads its tree. */
  fetch(cacheKey: string, remote: GitRemote, limits: GitLimits, options?: FetchOptions): Promise<FetchedTree>;
  /**
   * Makes a commit on `parent` (null: a root commit) changing `changes` (a path → new bytes, or null to
   * delete) and pushes it to `remote.ref`. When the resulting tree equals the parent's, no commit is made
   * and `commit` is the parent (`created: false`). A push refused as non-fast-forward is GitError "rejected"
   * unless `force`.
   */
  commit(
    cacheKey: string,
    remote: GitRemote,
    args: {
      parent: string | null;
      changes: Map<string, Buffer | null>;
      message: string;
      author: { name: string; email: string };
      force?: boolean;
    },
    limits: GitLimits,
  ): Promise<{
    commit: string;
    created: boolean;
    /** As `FetchedTree.url`: the URL reached after a redirect, absent when it was the remote's own. */
    url?: string;
  }>;
  /** Forgets the cache of `cacheKey`. */
  drop(cacheKey: string): Promise<void>;
}

/** `url` with any user:password taken out, for logs and answers. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    // Not a URL the WHATWG parser takes: cut anything between "//" and the last "@" of the authority.
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, "$1");
  }
}

/** Where the cache keeps the fetched commit: out of refs/heads so nothing mistakes it for a branch. */
const LOCAL_REF = "refs/quire/head";
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const STDERR_LIMIT = 64 * 1024;
const SIZE_POLL_MS = 50;
/** Redirects followed (one request each) to find where a moved repository went. */
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** How git (LC_ALL=C) says that the server answered with a redirect it did not follow. */
const REDIRECTED = /returned error: 30\d|redirect/i;
/**
 * Packs in a cache beyond which a fetch repacks it. Every fetch adds one (`unpackLimit` 1) and nothing
 * else ever removes one (`gc.auto` 0).
 */
export const PACK_LIMIT = 20;

/**
 * Configuration every git process gets, through the environment (never `-c` from user input). Hooks off,
 * only http(s), no credential helpers or prompts, redirects refused (they would reach unchecked hosts:
 * the client follows them itself, checked), and every fetched pack kept as a pack (`unpackLimit` 1) so
 * its growth is visible in `objects/pack`.
 */
const FIXED_CONFIG: [string, string][] = [
  ["protocol.allow", "never"],
  ["protocol.http.allow", "always"],
  ["protocol.https.allow", "always"],
  ["credential.helper", ""],
  ["core.askPass", ""],
  ["core.hooksPath", "/dev/null"],
  ["http.followRedirects", "false"],
  ["fetch.unpackLimit", "1"],
  ["transfer.unpackLimit", "1"],
  ["fetch.recurseSubmodules", "false"],
  ["fetch.writeCommitGraph", "false"],
  ["submodule.recurse", "false"],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
  ["init.defaultBranch", "main"],
];

/**
 * Ranges ipaddr.js 1.9 calls "unicast" although they are not reachable public addresses: benchmarking,
 * IPv4-compatible IPv6, discard-only, IETF protocol assignments (ORCHID, Teredo…), NAT64 local use,
 * deprecated site-local.
 */
const EXTRA_RESERVED = ["198.18.0.0/15", "::/96", "100::/64", "2001::/23", "64:ff9b:1::/48", "fec0::/10"].map(
  (cidr) => ipaddr.parseCIDR(cidr),
);

type Address = ReturnType<typeof ipaddr.parse>;

function normalize(address: Address): Address {
  // An IPv4-mapped IPv6 address reaches the IPv4 address: judge it as that.
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

function inRange(address: Address, [network, bits]: [Address, number]): boolean {
  const a = normalize(address);
  const n = normalize(network);
  if (a.kind() !== n.kind()) return false;
  // normalize() of a mapped network loses 96 bits of prefix; the mapped prefix length counts from them.
  const prefix = n.kind() === "ipv4" && network.kind() === "ipv6" ? Math.max(0, bits - 96) : bits;
  return a.kind() === "ipv4"
    ? (a as ipaddr.IPv4).match(n as ipaddr.IPv4, prefix)
    : (a as ipaddr.IPv6).match(n as ipaddr.IPv6, prefix);
}

/** Whether git may connect to `address` under `policy`. */
export function isAllowedAddress(address: string, policy: NetworkPolicy): boolean {
  let parsed: Address;
  try {
    parsed = normalize(ipaddr.parse(address.replace(/%.*$/, "")));
  } catch {
    return false;
  }
  for (const entry of policy.allowedPrivateAddresses) {
    try {
      const range: [Address, number] = entry.includes("/")
        ? ipaddr.parseCIDR(entry)
        : [ipaddr.parse(entry), ipaddr.parse(entry).kind() === "ipv4" ? 32 : 128];
      if (inRange(parsed, range)) return true;
    } catch {
      // parseAddressList validated the list where it came from configuration; skip anything else.
    }
  }
  if (parsed.range() !== "unicast") return false;
  return !EXTRA_RESERVED.some((range) => inRange(parsed, range));
}

interface Target {
  /** The URL git is given: no credentials, no query, no fragment. */
  url: string;
  host: string;
  /** Configuration for this remote: the pinned address, the credentials. */
  config: [string, string][];
}

/** The remote of one operation: `target` moves on once a redirect has been followed. */
interface Connection {
  target: Target;
  /** The target's URL as the remote gave it. */
  given: string;
  /** The given URL's scheme, host and port: the only origin the credentials are sent to. */
  origin: string;
  credentials?: Credentials;
}

type Service = "git-upload-pack" | "git-receive-pack";

const basicAuth = ({ username, password }: Credentials) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/** A lookup that answers with the addresses already checked, whatever DNS would say now. */
const pinnedLookup =
  (addresses: string[]): LookupFunction =>
  (_hostname, options, callback) => {
    const answers = addresses.map((address) => ({ address, family: isIP(address) }));
    if (options.all) callback(null, answers);
    else callback(null, answers[0]?.address ?? "", answers[0]?.family);
  };

interface Run {
  stdout: Buffer;
  stderr: string;
  code: number | null;
}

type Monitor = (kill: (reason: "too_large") => void) => () => void;

/** The limits of one operation: its deadline runs across every process it spawns. */
class Operation {
  private readonly deadline: number;
  constructor(
    readonly limits: GitLimits,
    private readonly baseEnv: Record<string, string>,
  ) {
    this.deadline = Date.now() + limits.timeoutMs;
  }

  remaining(): number {
    const left = this.deadline - Date.now();
    if (left <= 0) throw this.timeout();
    return left;
  }

  timeout(): GitError {
    return new GitError("timeout", `Git did not finish within ${this.limits.timeoutMs} ms.`);
  }

  /** Runs git; resolves with its exit (non-zero too), rejects with GitError on a kill or spawn failure. */
  git(
    args: string[],
    options: {
      input?: string | Buffer;
      env?: Record<string, string>;
      config?: [string, string][];
      monitor?: Monitor;
    } = {},
  ): Promise<Run> {
    const timeLeft = this.remaining();
    const config = [...FIXED_CONFIG, ...(options.config ?? [])];
    const env: Record<string, string> = {
      ...this.baseEnv,
      ...options.env,
      GIT_CONFIG_COUNT: String(config.length),
    };
    config.forEach(([key, value], i) => {
      env[`GIT_CONFIG_KEY_${i}`] = key;
      env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
    return new Promise((resolve, reject) => {
      // Detached: git is a process group leader, so a kill reaches git-remote-http and index-pack too.
      const child = spawn("git", args, { env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
      let killed: "timeout" | "too_large" | undefined;
      let settled = false;
      const kill = (reason: "timeout" | "too_large") => {
        if (killed) return;
        killed = reason;
        try {
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      };
      const timer = setTimeout(() => kill("timeout"), timeLeft);
      const stopMonitor = options.monitor?.(kill);
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let errSize = 0;
      child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => {
        if (errSize >= STDERR_LIMIT) return;
        err.push(chunk);
        errSize += chunk.length;
      });
      // git may exit before reading all its input (a failed fetch): that is its exit's story, not EPIPE's.
      child.stdin.on("error", () => {});
      const finish = (result: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        stopMonitor?.();
        result();
      };
      child.on("error", () => finish(() => reject(new GitError("failed", "Git could not be started."))));
      child.on("close", (code) =>
        finish(() => {
          if (killed === "timeout") reject(this.timeout());
          else if (killed === "too_large")
            reject(
              new GitError(
                "too_large",
                `The repository is larger than ${this.limits.maxPackBytes ?? this.limits.maxBytes} bytes.`,
              ),
            );
          else resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8"), code });
        }),
      );
      child.stdin.end(options.input);
    });
  }

  /** Runs git that must succeed: local plumbing, whose failure is the cache's, not the remote's. */
  async plumbing(args: string[], options: Parameters<Operation["git"]>[1] = {}): Promise<Buffer> {
    const run = await this.git(args, options);
    if (run.code !== 0) throw new GitError("failed", `Git failed: ${safeMessage(run.stderr)}`);
    return run.stdout;
  }
}

/** The first error line of git's stderr, with addresses masked (they may be resolved private ones). */
function safeMessage(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const line = lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0] ?? "no message";
  return line
    .replace(/^(fatal|error):\s*/, "")
    .replace(/\b\d{1,3}(\.\d{1,3}){3}\b/g, "<address>")
    .replace(/\[?\b(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}\b\]?/gi, "<address>")
    .replace(/Authorization:\s*\S+\s+\S+/gi, "Authorization: <redacted>")
    .slice(0, 300);
}

/** What a remote operation's failure means, from git's stderr (LC_ALL=C keeps it English). */
function remoteError(stderr: string, host: string): GitError {
  if (/returned error: 40[13]|Authentication failed|could not read (Username|Password)/i.test(stderr))
    return new GitError("auth", "The repository refused the credentials.");
  if (/returned error: 404|repository '.*' not found|not appear to be a git repository/i.test(stderr))
    return new GitError("not_found", "The repository was not found.");
  // What is left after the client followed what it could (see `remoteGit`).
  if (REDIRECTED.test(stderr))
    return new GitError(
      "failed",
      "The server redirected the request in a way that could not be followed. Give the repository's final URL.",
    );
  if (
    /Could not resolve host|Failed to connect|Couldn't connect|Connection refused|Connection reset|Connection timed out|No route to host|Network is unreachable|Empty reply from server/i.test(
      stderr,
    )
  )
    return new GitError("unreachable", `Could not connect to ${host}.`);
  if (/SSL|certificate|TLS/i.test(stderr))
    return new GitError("unreachable", `The secure connection to ${host} failed.`);
  return new GitError("failed", `Git failed: ${safeMessage(stderr)}`);
}

/** Roughly git's check-ref-format: a full ref name that cannot be read as an option or a refspec. */
function checkRef(ref: string): void {
  const valid =
    /^refs\/[^\0-\x20\x7f~^:?*[\\]+$/.test(ref) &&
    !ref.includes("..") &&
    !ref.includes("//") &&
    !ref.includes("@{") &&
    !ref.endsWith("/") &&
    !ref.endsWith(".") &&
    !ref.split("/").some((part) => part.startsWith(".") || part.endsWith(".lock"));
  if (!valid) throw new GitError("failed", `"${ref}" is not a valid Git ref.`);
}

/** A path git accepts in a tree and that cannot escape it. */
function checkPath(path: string): void {
  const valid =
    path !== "" &&
    !path.includes("\0") &&
    !path
      .split("/")
      .some((part) => part === "" || part === "." || part === ".." || part.toLowerCase() === ".git");
  if (!valid) throw new GitError("failed", `"${path}" is not a valid path in a repository.`);
}

/** Identity text for the environment: git would choke on angle brackets and line breaks. */
const identity = (text: string) => text.replace(/[<>\n\r\0]/g, "").trim();

export function createGitClient(options: { cacheDirectory: string; policy: NetworkPolicy }): GitClient {
  const { cacheDirectory, policy } = options;
  const home = join(cacheDirectory, ".home");
  const chains = new Map<string, Promise<unknown>>();

  /** Operations on one key run one after the other: git locks would otherwise make them fail. */
  const serial = <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const next = (chains.get(key) ?? Promise.resolve()).then(task, task);
    const settled = next.catch(() => {});
    chains.set(key, settled);
    settled.then(() => {
      if (chains.get(key) === settled) chains.delete(key);
    });
    return next;
  };

  /** A directory name for any key: safe characters, plus a hash so that distinct keys stay distinct. */
  const directoryOf = (cacheKey: string) => {
    const hash = createHash("sha256").update(cacheKey).digest("hex").slice(0, 16);
    return join(cacheDirectory, `${cacheKey.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64)}-${hash}`);
  };

  const begin = async (cacheKey: string, limits: GitLimits) => {
    const gitDir = directoryOf(cacheKey);
    await mkdir(home, { recursive: true });
    const baseEnv: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      // An empty home of ours: no ~/.gitconfig, no ~/.netrc, no ~/.git-credentials.
      HOME: home,
      XDG_CONFIG_HOME: home,
      LC_ALL: "C",
      LANG: "C",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_TERMINAL_PROMPT: "0",
      GIT_ASKPASS: "",
      SSH_ASKPASS: "",
      GIT_ALLOW_PROTOCOL: "http:https",
      GIT_NO_REPLACE_OBJECTS: "1",
      GIT_DIR: gitDir,
    };
    const op = new Operation(limits, baseEnv);
    try {
      await access(join(gitDir, "config"));
    } catch {
      await mkdir(gitDir, { recursive: true });
      await op.plumbing(["init", "--bare", "--quiet", gitDir]);
    }
    await removeLeftovers(gitDir);
    return { op, gitDir };
  };

  /**
   * What a killed git (timeout, too_large, a crash of the server) leaves behind: lock files that would
   * fail every later operation, and partial packs (a fetch's tmp_*, a repack's .tmp-*). Operations on a
   * key run one at a time, so at the start of one, any lock is stale.
   */
  const removeLeftovers = async (gitDir: string) => {
    const pack = join(gitDir, "objects", "pack");
    const partial = (await readdir(pack).catch(() => [] as string[]))
      .filter((name) => name.startsWith("tmp_") || name.startsWith(".tmp-"))
      .map((name) => join(pack, name));
    const locks = ["shallow.lock", "packed-refs.lock", "config.lock", "HEAD.lock", `${LOCAL_REF}.lock`].map(
      (name) => join(gitDir, name),
    );
    await Promise.all([...partial, ...locks].map((file) => rm(file, { force: true })));
  };

  /** The addresses of `host` (a name or an IP), every one allowed by the policy. */
  const addressesOf = async (host: string, op: Operation): Promise<string[]> => {
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      const deadline = op.remaining();
      let timer: NodeJS.Timeout | undefined;
      try {
        const answers = await Promise.race([
          lookup(host, { all: true, verbatim: true }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(op.timeout()), deadline);
          }),
        ]);
        addresses = answers.map((answer) => answer.address);
      } catch (err) {
        if (err instanceof GitError) throw err;
        throw new GitError("unreachable", `Could not resolve ${host}.`);
      } finally {
        clearTimeout(timer);
      }
      if (addresses.length === 0) throw new GitError("unreachable", `Could not resolve ${host}.`);
    }
    if (!addresses.every((address) => isAllowedAddress(address, policy)))
      throw new GitError("not_allowed", `The address of ${host} is not allowed.`);
    return addresses;
  };

  /** Git's view of `url` (without credentials): pinned to `addresses`, with `credentials` if any. */
  const pin = (url: URL, addresses: string[], credentials: Credentials | undefined): Target => {
    const host = hostOf(url);
    const config: [string, string][] = [];
    if (!isIP(host)) {
      // curl connects to these and no others: a second DNS answer cannot differ from the checked one.
      const port = url.port || (url.protocol === "https:" ? "443" : "80");
      const pinned = addresses.map((address) => (isIP(address) === 6 ? `[${address}]` : address)).join(",");
      config.push(["http.curloptResolve", `${host}:${port}:${pinned}`]);
    }
    if (credentials) config.push(["http.extraHeader", `Authorization: ${basicAuth(credentials)}`]);
    return { url: `${url.protocol}//${url.host}${url.pathname}`, host, config };
  };

  /** Checks the URL and the addresses of its host, and pins git to them. */
  const resolveRemote = async (remote: GitRemote, op: Operation): Promise<Connection> => {
    let url: URL;
    try {
      url = new URL(remote.url);
    } catch {
      throw new GitError("not_allowed", "The repository URL is not a valid URL.");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new GitError(
        "not_allowed",
        `Only http and https repositories can be synced, not ${url.protocol}`,
      );
    if (url.search || url.hash)
      throw new GitError("not_allowed", "Give the repository's URL without a query or a fragment.");
    checkRef(remote.ref);
    // Credentials written into the URL are taken out of it: git's argv is visible to `ps`.
    const credentials =
      remote.credentials ??
      (url.username || url.password
        ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
        : undefined);
    url.username = "";
    url.password = "";
    const target = pin(url, await addressesOf(hostOf(url), op), credentials);
    return { target, given: target.url, origin: url.origin, credentials };
  };

  /**
   * One GET of `url`, connected only to the checked `addresses` (under the URL's own Host and TLS
   * server name): the Location of a redirect, or undefined for any other answer.
   */
  const redirectOf = (op: Operation, url: URL, addresses: string[], credentials: Credentials | undefined) =>
    new Promise<string | undefined>((resolve, reject) => {
      const signal = AbortSignal.timeout(op.remaining());
      const get = url.protocol === "https:" ? httpsGet : httpGet;
      // Servers answer a Git client's discovery, not a browser's.
      const headers: Record<string, string> = { "user-agent": "git/2 (Quire)" };
      if (credentials) headers.authorization = basicAuth(credentials);
      get(url, { agent: false, lookup: pinnedLookup(addresses), signal, headers }, (response) => {
        const { statusCode = 0, headers: answer } = response;
        // Only the status matters: the body (a whole ref advertisement) is not read.
        response.destroy();
        resolve(REDIRECT_STATUSES.has(statusCode) && answer.location ? answer.location : undefined);
      }).on("error", () =>
        reject(
          signal.aborted ? op.timeout() : new GitError("unreachable", `Could not connect to ${hostOf(url)}.`),
        ),
      );
    });

  /**
   * Where git's first request for `service` is redirected to, followed by hand since git must not do it
   * (it would connect to unchecked hosts): each hop's addresses checked, credentials sent only to the
   * given URL's origin, no https→http. The target for the repository it ends at, or null when the first
   * request is not redirected (then git's own error tells what happened).
   */
  const discover = async (op: Operation, conn: Connection, service: Service): Promise<Target | null> => {
    // As git builds it: the repository URL with exactly one slash before "info/refs".
    const start = new URL(`${conn.target.url.replace(/\/?$/, "/")}info/refs?service=${service}`);
    const seen = new Set([start.href]);
    let url = start;
    let addresses: string[] = [];
    for (let hops = 0; ; hops++) {
      addresses = await addressesOf(hostOf(url), op);
      const credentials = url.origin === conn.origin ? conn.credentials : undefined;
      const location = await redirectOf(op, url, addresses, credentials);
      if (location === undefined) break;
      if (hops === MAX_REDIRECTS)
        throw new GitError("failed", `The server redirected the request more than ${MAX_REDIRECTS} times.`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new GitError("failed", "The server redirected the request to an invalid URL.");
      }
      if (next.protocol !== "http:" && next.protocol !== "https:")
        throw new GitError(
          "not_allowed",
          `The server redirected the request to ${next.protocol}, not http(s).`,
        );
      if (url.protocol === "https:" && next.protocol === "http:")
        throw new GitError("not_allowed", "The server redirected the request from https to plain http.");
      // Credentials in a Location would be sent by node:http: the server does not choose them.
      next.username = "";
      next.password = "";
      next.hash = "";
      if (seen.has(next.href)) throw new GitError("failed", "The server redirects the request in a loop.");
      seen.add(next.href);
      url = next;
    }
    if (url === start) return null;
    if (!url.pathname.endsWith("/info/refs"))
      throw new GitError(
        "failed",
        "The server redirected the request to something other than a Git repository.",
      );
    const repository = new URL(url);
    repository.pathname = url.pathname.slice(0, -"/info/refs".length);
    repository.search = "";
    return pin(repository, addresses, repository.origin === conn.origin ? conn.credentials : undefined);
  };

  /**
   * Runs a git command that talks to the remote (`args` of the URL). When the server redirected it, it
   * runs once more where the redirect leads, and the connection stays there for the operation's next.
   */
  const remoteGit = async (
    op: Operation,
    conn: Connection,
    service: Service,
    args: (url: string) => string[],
    monitor?: Monitor,
  ): Promise<Run> => {
    const run = await op.git(args(conn.target.url), { config: conn.target.config, monitor });
    if (run.code === 0 || !REDIRECTED.test(run.stderr)) return run;
    const moved = await discover(op, conn, service);
    if (!moved) return run;
    conn.target = moved;
    return op.git(args(moved.url), { config: moved.config, monitor });
  };

  /** The result's `url`: only when a redirect moved the connection. */
  const movedUrl = (conn: Connection) => (conn.target.url === conn.given ? {} : { url: conn.target.url });

  /** Total size of the pack directory, where a fetch's incoming pack (tmp_pack_*) grows. */
  const packBytes = async (gitDir: string) => {
    const dir = join(gitDir, "objects", "pack");
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return 0;
    }
    const sizes = await Promise.all(
      names.map((name) =>
        stat(join(dir, name)).then(
          (s) => s.size,
          () => 0, // Renamed or removed while listed.
        ),
      ),
    );
    return sizes.reduce((a, b) => a + b, 0);
  };

  const sizeMonitor =
    (gitDir: string, baseline: number, maxBytes: number): Monitor =>
    (kill) => {
      let busy = false;
      const timer = setInterval(() => {
        if (busy) return;
        busy = true;
        packBytes(gitDir)
          .then((size) => {
            if (size - baseline > maxBytes) kill("too_large");
          })
          .finally(() => {
            busy = false;
          });
      }, SIZE_POLL_MS);
      return () => clearInterval(timer);
    };

  /** Fetches the ref into LOCAL_REF; its commit, or null for a ref missing from an empty repository. */
  const fetchRef = async (
    op: Operation,
    gitDir: string,
    conn: Connection,
    ref: string,
  ): Promise<string | null> => {
    const maxBytes = op.limits.maxPackBytes ?? op.limits.maxBytes;
    const baseline = await packBytes(gitDir);
    const run = await remoteGit(
      op,
      conn,
      "git-upload-pack",
      (url) => [
        "fetch",
        "--quiet",
        "--depth=1",
        "--no-tags",
        "--no-write-fetch-head",
        url,
        `+${ref}:${LOCAL_REF}`,
      ],
      sizeMonitor(gitDir, baseline, maxBytes),
    );
    if (run.code !== 0) {
      if (!/couldn't find remote ref/i.test(run.stderr)) throw remoteError(run.stderr, conn.target.host);
      // The ref is missing: fine for an empty repository (the first sync writes it), not otherwise.
      const refs = await remoteGit(op, conn, "git-upload-pack", (url) => ["ls-remote", url]);
      if (refs.code !== 0) throw remoteError(refs.stderr, conn.target.host);
      if (refs.stdout.toString().trim() === "") return null;
      throw new GitError("not_found", `The repository has no ${ref.replace(/^refs\/heads\//, "branch ")}.`);
    }
    // The last poll may have missed the end of the pack.
    if ((await packBytes(gitDir)) - baseline > maxBytes)
      throw new GitError("too_large", `The repository is larger than ${maxBytes} bytes.`);
    return (await op.plumbing(["rev-parse", "--verify", `${LOCAL_REF}^{commit}`])).toString().trim();
  };

  /** Every regular file of the commit's tree under `directory`, read with one `cat-file --batch`. */
  const readTree = async (op: Operation, commit: string, directory: string) => {
    // The sizes come from the listing: nothing is read when the synced files are past the limit.
    const listing = await op.plumbing([
      "ls-tree",
      "-r",
      "-z",
      "--long",
      "--full-tree",
      commit,
      ...(directory ? ["--", `${directory}/`] : []),
    ]);
    const entries: { path: string; oid: string }[] = [];
    let total = 0;
    for (const record of listing.toString("utf8").split("\0")) {
      if (!record) continue;
      const tab = record.indexOf("\t");
      const [mode = "", type = "", oid = "", size = "0"] = record.slice(0, tab).split(/ +/);
      // Regular files only: symlinks and submodules (gitlinks) carry no page content.
      if (type !== "blob" || (mode !== "100644" && mode !== "100755")) continue;
      entries.push({ path: record.slice(tab + 1), oid });
      total += Number(size);
    }
    if (total > op.limits.maxBytes)
      throw new GitError(
        "too_large",
        `The repository's ${directory ? `files under ${directory}/` : "files"} are larger than ${op.limits.maxBytes} bytes.`,
      );
    const oids = [...new Set(entries.map((entry) => entry.oid))];
    const blobs = new Map<string, Buffer>();
    if (oids.length > 0) {
      const out = await op.plumbing(["cat-file", "--batch"], { input: `${oids.join("\n")}\n` });
      // Each answer: "<oid> <type> <size>\n<content>\n".
      let at = 0;
      while (at < out.length) {
        const eol = out.indexOf(0x0a, at);
        if (eol < 0) break;
        const [oid = "", type = "", size = ""] = out.subarray(at, eol).toString("latin1").split(" ");
        if (type === "missing" || size === "")
          throw new GitError("failed", "The cache lacks an object of the commit; fetch again.");
        const length = Number(size);
        blobs.set(oid, out.subarray(eol + 1, eol + 1 + length));
        at = eol + 1 + length + 1;
      }
    }
    const files = new Map<string, { oid: string; bytes: Buffer }>();
    for (const { path, oid } of entries) {
      const bytes = blobs.get(oid);
      if (!bytes) throw new GitError("failed", "The cache lacks an object of the commit; fetch again.");
      files.set(path, { oid, bytes });
    }
    return files;
  };

  /**
   * Once fetches have left more than PACK_LIMIT packs, repacks the cache into one pack of what
   * LOCAL_REF reaches, and prunes the rest (older fetched commits, objects of refused pushes). Best
   * effort: a failure, the operation's deadline included, leaves it for the next fetch.
   */
  const compact = async (op: Operation, gitDir: string) => {
    const names = await readdir(join(gitDir, "objects", "pack")).catch(() => [] as string[]);
    if (names.filter((name) => /^pack-.*\.pack$/.test(name)).length <= PACK_LIMIT) return;
    try {
      // No bitmap: git writes one by default in a bare repository, useless to a cache that never serves.
      await op.plumbing(["repack", "-a", "-d", "-q", "--no-write-bitmap-index"]);
      await op.plumbing(["prune", "--expire=now"]);
    } catch {
      // A killed repack leaves either the old packs or the new one: the cache stays whole.
    }
  };

  const hasCommit = async (op: Operation, oid: string) =>
    /^[0-9a-f]{40,64}$/.test(oid) && (await op.git(["cat-file", "-e", `${oid}^{commit}`])).code === 0;

  return {
    fetch(cacheKey, remote, limits, options = {}) {
      return serial(cacheKey, async () => {
        const { op, gitDir } = await begin(cacheKey, limits);
        const conn = await resolveRemote(remote, op);
        try {
          const commit = await fetchRef(op, gitDir, conn, remote.ref);
          const files =
            commit === null ? new Map() : await readTree(op, commit, directoryOption(options.directory));
          // After the tree is read, so that the repack cannot cost the fetch its result.
          await compact(op, gitDir);
          return { commit, files, ...movedUrl(conn) };
        } catch (err) {
          // Whatever of an oversized repository reached the disk goes: the cache is only a cache.
          if (err instanceof GitError && err.kind === "too_large")
            await rm(gitDir, { recursive: true, force: true });
          throw err;
        }
      });
    },

    commit(cacheKey, remote, args, limits) {
      return serial(cacheKey, async () => {
        const { op, gitDir } = await begin(cacheKey, limits);
        const conn = await resolveRemote(remote, op);
        for (const path of args.changes.keys()) checkPath(path);
        const { parent } = args;
        if (parent !== null && !(await hasCommit(op, parent))) {
          // A dropped or fresh cache: the parent should be the remote's head.
          await fetchRef(op, gitDir, conn, remote.ref);
          if (!(await hasCommit(op, parent)))
            throw args.force
              ? new GitError("not_found", "The commit to build on is not in the repository.")
              : new GitError("rejected", "The branch has moved on since the last sync.");
        }

        const work = await mkdtemp(join(gitDir, "quire-work-"));
        try {
          // A private index: the tree is built without any work tree, and without touching another's.
          const env = { GIT_INDEX_FILE: join(work, "index") };
          await op.plumbing(parent ? ["read-tree", parent] : ["read-tree", "--empty"], { env });

          const written = [...args.changes].filter((entry): entry is [string, Buffer] => entry[1] !== null);
          const files = await Promise.all(
            written.map(async ([, bytes], i) => {
              const file = join(work, `blob-${i}`);
              await writeFile(file, bytes);
              return file;
            }),
          );
          // One process for every blob, however many changed.
          const oids =
            written.length === 0
              ? []
              : (
                  await op.plumbing(["hash-object", "-w", "--no-filters", "--stdin-paths"], {
                    input: `${files.join("\n")}\n`,
                  })
                )
                  .toString()
                  .trim()
                  .split("\n");
          let info = "";
          written.forEach(([path], i) => {
            info += `100644 ${oids[i]}\t${path}\0`;
          });
          for (const [path, bytes] of args.changes)
            if (bytes === null) info += `0 ${"0".repeat(40)}\t${path}\0`;
          if (info) await op.plumbing(["update-index", "-z", "--index-info"], { env, input: info });
          const tree = (await op.plumbing(["write-tree"], { env })).toString().trim();
          const parentTree = parent
            ? (await op.plumbing(["rev-parse", `${parent}^{tree}`])).toString().trim()
            : EMPTY_TREE;
          // A root commit is made even for an empty tree: there is no parent to answer with.
          if (parent !== null && tree === parentTree)
            return { commit: parent, created: false, ...movedUrl(conn) };

          const commit = (
            await op.plumbing(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-F", "-"], {
              input: args.message,
              env: {
                GIT_AUTHOR_NAME: identity(args.author.name),
                GIT_AUTHOR_EMAIL: identity(args.author.email),
                GIT_COMMITTER_NAME: "Quire",
                GIT_COMMITTER_EMAIL: identity(args.author.email),
              },
            })
          )
            .toString()
            .trim();

          const push = await remoteGit(op, conn, "git-receive-pack", (url) => [
            "push",
            "--porcelain",
            "--quiet",
            url,
            `${args.force ? "+" : ""}${commit}:${remote.ref}`,
          ]);
          if (push.code !== 0) {
            const report = push.stdout.toString();
            if (/\t\[rejected\]/.test(report))
              throw new GitError("rejected", "The branch has moved on since the last sync.");
            const refused = /\t\[remote rejected\] \((.*)\)/.exec(report);
            if (refused)
              throw new GitError(
                "rejected",
                `The repository refused the push: ${safeMessage(refused[1] ?? "")}`,
              );
            throw remoteError(push.stderr, conn.target.host);
          }
          // The next commit builds on this one; the ref also keeps it from any pruning.
          await op.plumbing(["update-ref", LOCAL_REF, commit]);
          return { commit, created: true, ...movedUrl(conn) };
        } finally {
          await rm(work, { recursive: true, force: true });
        }
      });
    },

    drop(cacheKey) {
      return serial(cacheKey, () => rm(directoryOf(cacheKey), { recursive: true, force: true }));
    },
  };
}

/**
 * The object id Git gives a file of `bytes` in the repository whose commit is `commit`: SHA-1 of its
 * header and bytes, or SHA-256 in a repository of that object format (64-digit ids).
 */
export function blobOid(bytes: Buffer, commit: string): string {
  return createHash(commit.length === 64 ? "sha256" : "sha1")
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest("hex");
}

/** A directory of the tree as `ls-tree` takes it: no leading, trailing or doubled slash; "" for the root. */
function directoryOption(directory: string | undefined): string {
  const parts = (directory ?? "").split("/").filter((part) => part !== "" && part !== ".");
  if (parts.some((part) => part === ".."))
    throw new GitError("failed", "The directory is not inside the repository.");
  return parts.join("/");
}

/**
 * How much more the pack of a whole commit may be than its synced files: a monorepo's docs folder is
 * small beside its code and media, which are fetched (one shallow commit) but never read.
 */
const PACK_BYTES_PER_SYNCED_BYTE = 4;

/** Git Sync's transport as the server runs it: one client, what one operation may take, how often to poll. */
export interface GitSettings {
  client: GitClient;
  limits: GitLimits;
  /** How often a connected space's branch is looked at for new commits; 0: never (pushes only). */
  pollMs: number;
}

/** The settings from configuration (`Config.git`) under the server's network policy. */
export function gitSettingsFrom(
  config: { cacheDirectory: string; timeoutMs: number; maxBytes: number; pollMs: number },
  policy: NetworkPolicy,
): GitSettings {
  return {
    client: createGitClient({ cacheDirectory: config.cacheDirectory, policy }),
    limits: {
      timeoutMs: config.timeoutMs,
      maxBytes: config.maxBytes,
      maxPackBytes: config.maxBytes * PACK_BYTES_PER_SYNCED_BYTE,
    },
    pollMs: config.pollMs,
  };
}
