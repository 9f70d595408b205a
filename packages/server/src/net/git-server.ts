import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A real Git server for tests: `git http-backend` (CGI) behind node:http on a loopback port, with HTTP
 * basic auth and push enabled, plus helpers that play a developer working on the repositories directly.
 */
export interface GitServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `http://127.0.0.1:<port>/<name>.git`, without credentials. */
  url(name: string): string;
  /** Every request the server received, as `METHOD /path?query`. */
  requests: string[];
  /** A bare repository whose first commit, on `main`, holds `files`; its commit. */
  createRepository(name: string, files: Record<string, string | Buffer>, message?: string): Promise<string>;
  /** A bare repository without any commit. */
  createEmptyRepository(name: string): Promise<void>;
  /**
   * Answers every authenticated request for `from` with a 301 to the same path of `to`, as a host does
   * for a renamed repository.
   */
  moveRepository(from: string, to: string): void;
  /** Lets anyone read and push `name`, without credentials. */
  publishRepository(name: string): void;
  /** A developer's push to `main`: null deletes a path. The new commit. */
  commitFiles(
    name: string,
    changes: Record<string, string | Buffer | null>,
    message: string,
  ): Promise<string>;
  readFiles(name: string, ref?: string): Promise<Record<string, Buffer>>;
  head(name: string, ref?: string): Promise<string | null>;
  commitCount(name: string, ref?: string): Promise<number>;
  /** The paths `commit` changed against its parent (every path for a root commit). */
  changedPaths(name: string, commit: string): Promise<string[]>;
  /** Who made `commit`, and its message. */
  author(
    name: string,
    commit: string,
  ): Promise<{ name: string; email: string; committer: string; message: string }>;
  close(): Promise<void>;
}

const MAIN = "refs/heads/main";

/** Git for the helpers, isolated from the machine's configuration. */
function git(
  args: string[],
  options: { gitDir?: string; env?: Record<string, string>; input?: string | Buffer } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      args,
      {
        encoding: "buffer",
        maxBuffer: 256 * 1024 * 1024,
        timeout: 30_000,
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: tmpdir(),
          LC_ALL: "C",
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_CONFIG_GLOBAL: "/dev/null",
          GIT_AUTHOR_NAME: "Developer",
          GIT_AUTHOR_EMAIL: "dev@example.com",
          GIT_COMMITTER_NAME: "Developer",
          GIT_COMMITTER_EMAIL: "dev@example.com",
          ...(options.gitDir ? { GIT_DIR: options.gitDir } : {}),
          ...options.env,
        },
      },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`git ${args.join(" ")}: ${stderr.toString()}`));
        else resolve(stdout);
      },
    );
    child.stdin?.end(options.input);
  });
}

export async function startGitServer(auth: { username: string; password: string }): Promise<GitServer> {
  const root = await mkdtemp(join(tmpdir(), "quire-git-server-"));
  const backend = join((await git(["--exec-path"])).toString().trim(), "git-http-backend");
  const expected = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}`;
  const requests: string[] = [];
  const moved = new Map<string, string>();
  const published = new Set<string>();

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? "/", "http://localhost");
    const [, repository = "", rest = ""] = /^\/([^/]+)\.git(\/.*)?$/.exec(url.pathname) ?? [];
    if (req.headers.authorization !== expected && !published.has(repository)) {
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"' }).end("Unauthorized");
      return;
    }
    const to = moved.get(repository);
    if (to !== undefined) {
      res.writeHead(301, { location: `${origin}/${to}.git${rest}${url.search}` }).end();
      return;
    }
    const cgi = spawn(backend, [], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        REQUEST_METHOD: req.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        ...(req.headers["content-length"] ? { CONTENT_LENGTH: req.headers["content-length"] } : {}),
        ...(req.headers["content-encoding"]
          ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] }
          : {}),
        ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) } : {}),
        REMOTE_USER: auth.username,
        REMOTE_ADDR: req.socket.remoteAddress ?? "127.0.0.1",
      },
    });
    req.pipe(cgi.stdin);
    cgi.stdin.on("error", () => {});
    // The CGI answer: headers (with `Status:`), a blank line, the body, streamed through.
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on("data", (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    cgi.stdout.on("end", () => {
      if (!headersDone) res.writeHead(500);
      res.end();
    });
    cgi.on("error", () => res.destroy());
  };

  const server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const dir = (name: string) => join(root, `${name}.git`);

  /** A commit on `parent` changing `changes`, with the same plumbing Quire uses, moved onto `main`. */
  const writeCommit = async (
    name: string,
    changes: Record<string, string | Buffer | null>,
    message: string,
  ) => {
    const gitDir = dir(name);
    const parent = await head(name, MAIN);
    const work = await mkdtemp(join(tmpdir(), "quire-git-work-"));
    try {
      const env = { GIT_INDEX_FILE: join(work, "index") };
      await git(parent ? ["read-tree", parent] : ["read-tree", "--empty"], { gitDir, env });
      const written = Object.entries(changes).filter(
        (entry): entry is [string, string | Buffer] => entry[1] !== null,
      );
      const files = await Promise.all(
        written.map(async ([, content], i) => {
          const file = join(work, `blob-${i}`);
          await writeFile(file, content);
          return file;
        }),
      );
      const oids = written.length
        ? (
            await git(["hash-object", "-w", "--no-filters", "--stdin-paths"], {
              gitDir,
              input: `${files.join("\n")}\n`,
            })
          )
            .toString()
            .trim()
            .split("\n")
        : [];
      let info = "";
      written.forEach(([path], i) => {
        info += `100644 ${oids[i]}\t${path}\0`;
      });
      for (const [path, content] of Object.entries(changes))
        if (content === null) info += `0 ${"0".repeat(40)}\t${path}\0`;
      await git(["update-index", "-z", "--index-info"], { gitDir, env, input: info });
      const tree = (await git(["write-tree"], { gitDir, env })).toString().trim();
      const commit = (
        await git(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-F", "-"], {
          gitDir,
          input: message,
        })
      )
        .toString()
        .trim();
      await git(["update-ref", MAIN, commit], { gitDir });
      return commit;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  };

  const createEmptyRepository = async (name: string) => {
    await mkdir(root, { recursive: true });
    await git(["init", "--bare", "-q", "--initial-branch=main", dir(name)]);
    await git(["config", "http.receivepack", "true"], { gitDir: dir(name) });
  };

  const head = async (name: string, ref = MAIN) => {
    try {
      return (await git(["rev-parse", "--verify", "-q", `${ref}^{commit}`], { gitDir: dir(name) }))
        .toString()
        .trim();
    } catch {
      return null;
    }
  };

  return {
    origin,
    url: (name) => `${origin}/${name}.git`,
    requests,
    async createRepository(name, files, message = "Initial commit") {
      await createEmptyRepository(name);
      return writeCommit(name, files, message);
    },
    createEmptyRepository,
    moveRepository: (from, to) => moved.set(from, to),
    publishRepository: (name) => published.add(name),
    commitFiles: writeCommit,
    async readFiles(name, ref = MAIN) {
      const gitDir = dir(name);
      const listing = (await git(["ls-tree", "-r", "-z", ref], { gitDir })).toString();
      const files: Record<string, Buffer> = {};
      for (const entry of listing.split("\0")) {
        if (!entry) continue;
        const tab = entry.indexOf("\t");
        const oid = entry.slice(0, tab).split(" ")[2] ?? "";
        files[entry.slice(tab + 1)] = await git(["cat-file", "blob", oid], { gitDir });
      }
      return files;
    },
    head,
    async commitCount(name, ref = MAIN) {
      return Number((await git(["rev-list", "--count", ref], { gitDir: dir(name) })).toString().trim());
    },
    async changedPaths(name, commit) {
      const out = await git(["diff-tree", "--no-commit-id", "--name-only", "-r", "-z", "--root", commit], {
        gitDir: dir(name),
      });
      return out
        .toString()
        .split("\0")
        .filter((path) => path !== "");
    },
    async author(name, commit) {
      const out = (
        await git(["show", "-s", "--format=%an%x00%ae%x00%cn%x00%B", commit], { gitDir: dir(name) })
      )
        .toString()
        .trim();
      const [authorName = "", email = "", committer = "", message = ""] = out.split("\0");
      return { name: authorName, email, committer, message: message.trim() };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rm(root, { recursive: true, force: true }).then(() => resolve());
        });
      }),
  };
}
