import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { testDatabaseKind } from "../testing/database.js";
import type { CheckpointSettings } from "./checkpoints.js";
import { type Db, openDatabase } from "./database.js";

describe.runIf(testDatabaseKind === "sqlite")("SQLite checkpoints, off the event loop", () => {
  const directories: string[] = [];
  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  async function open(checkpoints: CheckpointSettings): Promise<{ db: Db; file: string }> {
    const directory = mkdtempSync(join(tmpdir(), "quire-checkpoints-"));
    directories.push(directory);
    const db = openDatabase({ location: directory, checkpoints });
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    return { db, file: join(directory, "quire.sqlite") };
  }

  /** `count` transactions of one 2 KB row each, letting timers and messages run between them. */
  async function write(db: Db, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      await db
        .transaction()
        .execute((tx) => sql`insert into notes (body) values (${"x".repeat(2048)})`.execute(tx));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);

  it("are not run by the commits: a thread copies the log back into the database file", async () => {
    // A long log never reaches the server's connection: only the thread checkpoints.
    const { db, file } = await open({ gatherMs: 10, longLogFrames: 1_000_000 });
    try {
      const [setting] = (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db))
        .rows;
      expect(setting?.wal_autocheckpoint).toBe(0);
      const before = sizeOf(file);
      await write(db, 300);
      // 300 rows of 2 KB: at least 600 KB more in the database file once copied back.
      await vi.waitFor(() => expect(sizeOf(file) - before).toBeGreaterThan(600_000), { timeout: 5_000 });
      const { rows } = await sql<{ count: number }>`select count(*) as count from notes`.execute(db);
      expect(rows[0]?.count).toBe(300);
    } finally {
      await db.destroy();
    }
  });

  it("keep the log short under constant writes: a long one is finished by the server's connection", async () => {
    const { db, file } = await open({ gatherMs: 10, longLogFrames: 100 });
    try {
      // 2,000 commits of at least one 4 KB page each: 8 MB of log, and more with each look below, if
      // it never restarted. It restarts within about two long-log lengths, and is cut back to one.
      await write(db, 2_000);
      await vi.waitFor(
        async () => {
          // Writes go on while waiting (the thread may still be starting on a busy machine).
          await write(db, 50);
          expect(sizeOf(`${file}-wal`)).toBeLessThan(4 * 100 * 4096);
        },
        { timeout: 20_000, interval: 0 },
      );
    } finally {
      await db.destroy();
    }
  });

  it("stop with the database: the thread's connection closes first, and the last one removes the log", async () => {
    const { db, file } = await open({ gatherMs: 10, longLogFrames: 1_000_000 });
    await write(db, 20);
    await db.destroy();
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(existsSync(`${file}-shm`)).toBe(false);
    const reopened = openDatabase({ location: join(file, ".."), create: false });
    try {
      const { rows } = await sql<{ count: number }>`select count(*) as count from notes`.execute(reopened);
      expect(rows[0]?.count).toBe(20);
    } finally {
      await reopened.destroy();
    }
  });
});
