import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { type TestDatabase, testDatabaseKind } from "./database.js";

// The built server, as production runs it; `turbo run test` builds it first.
const MAIN = new URL("../../dist/main.js", import.meta.url).pathname;

/** A server process started from the build, with everything it wrote so far. */
export interface ServerProcess {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  exited: Promise<number | null>;
}

/** Fails clearly when the build is missing, rather than with a spawn error deep in a test. */
export function assertServerBuilt(): void {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the server first (npm run build)`);
}

/**
 * Starts `dist/main.js` with `env` (which replaces the process environment entirely; logs at info, which
 * the helpers below read) and returns it;
 * `onCleanup` receives what kills it, for the test's afterEach.
 */
export function startServerProcess(
  env: NodeJS.ProcessEnv,
  onCleanup: (kill: () => void) => void,
): ServerProcess {
  const child = spawn(process.execPath, [MAIN], { env: { ...env, LOG_LEVEL: "info" } });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  onCleanup(() => child.kill("SIGKILL"));
  return { child, output: () => output, exited };
}

/**
 * Starts the built server on the test's database (its SQLite directory or its PostgreSQL schema),
 * with the process's environment and `env`, without a rate limit.
 */
export function startServerOn(
  database: TestDatabase,
  env: NodeJS.ProcessEnv,
  onCleanup: (kill: () => void) => void,
): ServerProcess {
  const { DATABASE_URL: _url, QUIRE_DATA_DIR: _dir, ...inherited } = process.env;
  const location =
    testDatabaseKind === "sqlite"
      ? { QUIRE_DATA_DIR: database.location }
      : { DATABASE_URL: database.location };
  return startServerProcess(
    { ...inherited, ...location, PORT: "0", QUIRE_RATE_LIMIT: "0", ...env },
    onCleanup,
  );
}

/** Polls `find` every 50 ms until it returns something, or fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(
  find: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The port the server says it listens on, once it says so. */
export const listeningPort = (server: ServerProcess): Promise<string> =>
  waitFor(() => /"port":(\d+)[^\n]*Quire is listening/.exec(server.output())?.[1], "the server to listen");

/**
 * The organization and bearer token the first start creates and prints. The notice and the "listening" log
 * line are separate writes, so the notice may arrive after the port: wait for it.
 */
export function firstStartCredentials(
  server: ServerProcess,
): Promise<{ organizationId: string; token: string }> {
  return waitFor(() => {
    const [, organizationId, token] =
      /created \S+ and organization (\S+)\.[\s\S]*Bearer (quire_[^']+)'/.exec(server.output()) ?? [];
    return organizationId && token ? { organizationId, token } : undefined;
  }, "the first-start credentials");
}
