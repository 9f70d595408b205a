import { randomBytes } from "node:crypto";
import { link, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import { type Db, isPostgresLocation } from "../db/database.js";

/** The name of the generated key's file in the data directory (SQLite). */
const FILE = "secret-key";
/** Its row in `server_secrets` (PostgreSQL). */
const ROW = "secret_key";

/** 32 random bytes: 43 characters, over the 32 that `QUIRE_SECRET_KEY` must have. */
export function generateSecretKey(): string {
  return randomBytes(32).toString("base64url");
}

export interface SecretKeySource {
  /** `QUIRE_SECRET_KEY`, when set: then nothing is generated or stored. */
  configured: string | undefined;
  db: Db;
  /** The database location: a SQLite data directory or a PostgreSQL URL. */
  location: string;
  logger: Pick<Logger, "info">;
}

/**
 * The key that signs URLs and encrypts secrets at rest: `QUIRE_SECRET_KEY`, or else one generated on
 * the first start and kept (a file of the data directory on SQLite, a row on PostgreSQL), so that
 * restarts and every process of the deployment use the same one. Call after `migrate`.
 */
export async function resolveSecretKey({
  configured,
  db,
  location,
  logger,
}: SecretKeySource): Promise<string> {
  if (configured !== undefined) return configured;
  return isPostgresLocation(location) ? databaseKey(db, logger) : fileKey(location, logger);
}

async function databaseKey(db: Db, logger: SecretKeySource["logger"]): Promise<string> {
  // Processes starting at once all insert; the first one's key stays, and every one reads it back.
  const { numInsertedOrUpdatedRows } = await db
    .insertInto("server_secrets")
    .values({ name: ROW, value: generateSecretKey() })
    .onConflict((oc) => oc.column("name").doNothing())
    .executeTakeFirst();
  if (numInsertedOrUpdatedRows === 1n)
    logger.info(
      "Generated a secret key (QUIRE_SECRET_KEY is not set), kept in the database (server_secrets)",
    );
  const { value } = await db
    .selectFrom("server_secrets")
    .select("value")
    .where("name", "=", ROW)
    .executeTakeFirstOrThrow();
  return value;
}

async function fileKey(dataDir: string, logger: SecretKeySource["logger"]): Promise<string> {
  const existing = await readSecretKeyFile(dataDir);
  if (existing !== undefined) return existing;
  const file = join(dataDir, FILE);
  const written = await writeTemporary(dataDir, generateSecretKey());
  try {
    // A link appears whole and only if the name is free: of processes starting at once, the first
    // one's key is the one every process reads.
    await link(written, file);
    logger.info({ file }, "Generated a secret key (QUIRE_SECRET_KEY is not set)");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await rm(written, { force: true });
  }
  const key = await readSecretKeyFile(dataDir);
  if (key === undefined) throw new Error(`${file} vanished as it was created`);
  return key;
}

/** The generated key kept in the SQLite data directory, if there is one. */
export async function readSecretKeyFile(dataDir: string): Promise<string | undefined> {
  const file = join(dataDir, FILE);
  let key: string;
  try {
    key = (await readFile(file, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  if (key.length < 32) throw new Error(`${file} holds no secret key (fewer than 32 characters)`);
  return key;
}

/** Puts `key` in place of the data directory's key file, whole or not at all (a restore). */
export async function writeSecretKeyFile(dataDir: string, key: string): Promise<void> {
  await rename(await writeTemporary(dataDir, key), join(dataDir, FILE));
}

/** A new file of the data directory holding `key`, readable by this user alone. */
async function writeTemporary(dataDir: string, key: string): Promise<string> {
  const path = join(dataDir, `${FILE}.${randomBytes(6).toString("hex")}.tmp`);
  await writeFile(path, key, { mode: 0o600, flag: "wx" });
  return path;
}
