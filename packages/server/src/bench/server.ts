import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { openDatabase } from "../db/database.js";
import type { Target, TargetReply } from "./targets.js";

/** A bench target's server running in a process of its own (targets.ts). */
export interface StartedTarget {
  child: ChildProcess;
  /** The target's next reply. */
  next: () => Promise<TargetReply>;
  url: string;
}

/** A started target's replies, one JSON line each, in order; rejects if the target dies first. */
function replies(child: ChildProcess): () => Promise<TargetReply> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  return () =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`a bench target exited (code ${code})`));
      child.once("exit", onExit);
      lines.next().then((line) => {
        child.off("exit", onExit);
        if (line.done) reject(new Error("a bench target closed its output"));
        else resolve(JSON.parse(line.value) as TargetReply);
      }, reject);
    });
}

/** Starts `target` in a process of its own and waits for its port. */
export async function startTarget(
  target: Target,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StartedTarget> {
  const child = spawn(process.execPath, [fileURLToPath(new URL("./targets.js", import.meta.url))], {
    stdio: ["pipe", "pipe", "inherit"],
    env,
  });
  const next = replies(child);
  child.stdin?.end(JSON.stringify(target));
  const reply = await next();
  if (!("port" in reply)) throw new Error("a bench target did not report its port");
  return { child, next, url: `http://127.0.0.1:${reply.port}` };
}

/** A database of its own on the PostgreSQL server, dropped at the end: no other run's rows, no leftovers. */
export async function freshPostgresDatabase(serverUrl: string) {
  const name = `quire_bench_${process.pid}_${Date.now()}`;
  const admin = openDatabase({ location: serverUrl });
  await sql`create database ${sql.id(name)}`.execute(admin);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    location: url.href,
    async drop() {
      // WITH (FORCE): the killed targets' connections may not be closed on the server side yet.
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
      await admin.destroy();
    },
  };
}
