import { join, resolve } from "node:path";
import { type ContentLimits, defaultContentLimits } from "./content/engine/index.js";
import type { SqliteSync } from "./db/sqlite-sync.js";
import { defaultEventDelivery, type EventDeliverySettings } from "./events/delivery-settings.js";
import { type NetworkPolicy, parseAddressList } from "./net/fetch.js";

export interface Config {
  port: number;
  /** A directory for the SQLite file, or a postgres:// URL. */
  database: string;
  /** `QUIRE_SQLITE_SYNCHRONOUS`: when SQLite syncs commits to disk, `normal` by default (see `SqliteSync`). */
  sqliteSynchronous: SqliteSync;
  logLevel: string;
  /** Outside production, the log is written for people (when it goes to a terminal); JSON lines otherwise. */
  readableLogs: boolean;
  publicUrl: string;
  /** `QUIRE_WEBHOOK_FANOUT_MS`, `QUIRE_WEBHOOK_TIMEOUT_MS`: how events go out to webhooks and integrations. */
  eventDelivery: EventDeliverySettings;
  validateResponses: boolean;
  ownerEmail: string;
  /**
   * `QUIRE_SECRET_KEY`, required in production; without it the server generates one on its first
   * start (src/auth/secret-key.ts).
   */
  secretKey?: string;
  /** What URLs given by users (OpenAPI sources) may point to: public addresses, and these. */
  network: NetworkPolicy;
  /** Requests a token may send per minute; 0 for no limit. */
  rateLimitPerMinute: number;
  /** Where uploaded files' bytes go, and how large one may be. */
  files: FilesConfig;
  /** What reading and rendering page bodies may cost (see `ContentEngine`). */
  content: ContentLimits;
  /** Git Sync's repositories: where they are cached, and what one operation may take. */
  git: GitConfig;
  /**
   * `QUIRE_JOB_LEASE_MS`: how long a server process holds a background job it took, 5 minutes by
   * default; a job whose process died is taken again after it. Longer than `QUIRE_GIT_TIMEOUT_MS`.
   */
  jobLeaseMs: number;
  /** `QUIRE_AUDIT_RETENTION_DAYS`: how long events (the audit log) are kept, a year by default. */
  auditRetentionDays: number;
  /** How mail goes out (see `MailSettings`). */
  mail: MailSettings;
}

/** See `Config.mail`. */
export interface MailSettings {
  /**
   * `QUIRE_SMTP_URL`: the SMTP server, `smtp://` (STARTTLS when the server offers it) or `smtps://`
   * (TLS from the start), with `user:password@` (percent-encoded) when it asks for them. Unset: mail
   * is written to the log instead, links included.
   */
  smtpUrl?: string;
  /** `QUIRE_MAIL_FROM`: the sender, by default `Quire <quire@…>` at the public URL's host. */
  from: string;
}

/** See `Config.git`. */
export interface GitConfig {
  /** `QUIRE_GIT_CACHE_DIR`, by default `git` under the data directory: one bare repository per space. */
  cacheDirectory: string;
  /** `QUIRE_GIT_TIMEOUT_MS`: how long an import or export may run, 4 minutes by default. */
  timeoutMs: number;
  /** `QUIRE_GIT_MAX_BYTES`: the most the synced files may weigh, 256 MB by default (a fetch may download 4×). */
  maxBytes: number;
  /** `QUIRE_GIT_POLL_MS`: how often connected branches are looked at, 5 minutes by default; 0: never. */
  pollMs: number;
}

/** Storage of file bytes: a directory, or an S3-compatible bucket when `s3` is given. */
export interface FilesConfig {
  /** `QUIRE_FILES_DIR`, by default `files` under the data directory. */
  directory: string;
  /** `QUIRE_FILES_S3_BUCKET` (with `QUIRE_FILES_S3_ENDPOINT`, `QUIRE_FILES_S3_REGION`, `QUIRE_FILES_S3_PREFIX`). */
  s3?: { bucket: string; endpoint?: string; region: string; prefix: string };
  /** `QUIRE_MAX_UPLOAD_BYTES`: the largest upload accepted, 25 MB by default. */
  maxUploadBytes: number;
}

/** Configuration from the environment, with the defaults a first `npm start` needs. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not "${env.PORT}"`);
  return {
    port,
    database: env.DATABASE_URL ?? dataDirectoryFrom(env),
    sqliteSynchronous: sqliteSynchronousFrom(env),
    logLevel: env.LOG_LEVEL ?? "info",
    readableLogs: env.NODE_ENV !== "production",
    publicUrl: publicUrlFrom(env),
    eventDelivery: {
      ...defaultEventDelivery,
      fanOutMs: positiveInteger(env, "QUIRE_WEBHOOK_FANOUT_MS", defaultEventDelivery.fanOutMs),
      timeoutMs: positiveInteger(env, "QUIRE_WEBHOOK_TIMEOUT_MS", defaultEventDelivery.timeoutMs),
    },
    validateResponses:
      (env.QUIRE_VALIDATE_RESPONSES ?? (env.NODE_ENV === "production" ? "false" : "true")) === "true",
    ownerEmail: env.QUIRE_OWNER_EMAIL ?? "owner@localhost",
    secretKey: secretKeyFrom(env),
    network: { allowedPrivateAddresses: allowedPrivateAddressesFrom(env) },
    rateLimitPerMinute: rateLimitFrom(env),
    files: filesFrom(env),
    content: contentLimitsFrom(env),
    jobLeaseMs: positiveInteger(env, "QUIRE_JOB_LEASE_MS", 5 * 60 * 1000),
    auditRetentionDays: auditRetentionDaysFrom(env),
    mail: mailFrom(env),
    git: {
      cacheDirectory: userPath(env.QUIRE_GIT_CACHE_DIR ?? join(dataDirectoryFrom(env), "git"), env),
      timeoutMs: gitTimeoutFrom(env),
      maxBytes: positiveInteger(env, "QUIRE_GIT_MAX_BYTES", 256 * 1024 * 1024),
      pollMs: env.QUIRE_GIT_POLL_MS === "0" ? 0 : positiveInteger(env, "QUIRE_GIT_POLL_MS", 5 * 60 * 1000),
    },
  };
}

/** See `Config.auditRetentionDays`; read on its own by the audit area, whose task deletes what is older. */
export function auditRetentionDaysFrom(env: NodeJS.ProcessEnv = process.env): number {
  return positiveInteger(env, "QUIRE_AUDIT_RETENTION_DAYS", 365);
}

function mailFrom(env: NodeJS.ProcessEnv): MailSettings {
  // Empty counts as unset, as a compose file's `QUIRE_SMTP_URL=` leaves it.
  const smtpUrl = env.QUIRE_SMTP_URL || undefined;
  if (smtpUrl !== undefined) {
    // The value is not repeated in the error: it may hold a password.
    const url = URL.canParse(smtpUrl) ? new URL(smtpUrl) : undefined;
    if (!url || (url.protocol !== "smtp:" && url.protocol !== "smtps:") || !url.hostname)
      throw new Error(
        "QUIRE_SMTP_URL must be an smtp:// or smtps:// URL, such as smtps://user:password@mail.example.com:465",
      );
  }
  const publicUrl = publicUrlFrom(env);
  const host = URL.canParse(publicUrl) ? new URL(publicUrl).hostname : "localhost";
  return {
    ...(smtpUrl && { smtpUrl }),
    from: env.QUIRE_MAIL_FROM || `Quire <quire@${host}>`,
  };
}

function sqliteSynchronousFrom(env: NodeJS.ProcessEnv): SqliteSync {
  const value = env.QUIRE_SQLITE_SYNCHRONOUS ?? "normal";
  if (value !== "normal" && value !== "full")
    throw new Error(`QUIRE_SQLITE_SYNCHRONOUS must be "normal" or "full", not "${value}"`);
  return value;
}

function publicUrlFrom(env: NodeJS.ProcessEnv): string {
  return env.QUIRE_PUBLIC_URL ?? `http://localhost:${Number(env.PORT ?? 8080)}`;
}

/** A positive whole number from `env[name]`, or `fallback` when it is not set. */
function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive whole number, not "${env[name]}"`);
  return value;
}

/**
 * `QUIRE_CONTENT_THREADS`, `QUIRE_CONTENT_TIMEOUT_MS` and `QUIRE_CONTENT_MEMORY_MB` (the pool reading and
 * rendering page bodies: threads, and per body time and heap), `QUIRE_CONTENT_MAX_NESTING`,
 * `QUIRE_PDF_TIMEOUT_MS` and `QUIRE_PDF_MEMORY_MB` (the PDF pool, one thread).
 */
function contentLimitsFrom(env: NodeJS.ProcessEnv): ContentLimits {
  const { pool, pdf, maxNesting, cacheBytes } = defaultContentLimits;
  return {
    maxNesting: positiveInteger(env, "QUIRE_CONTENT_MAX_NESTING", maxNesting),
    pool: {
      ...pool,
      threads: positiveInteger(env, "QUIRE_CONTENT_THREADS", pool.threads),
      timeoutMs: positiveInteger(env, "QUIRE_CONTENT_TIMEOUT_MS", pool.timeoutMs),
      memoryMb: positiveInteger(env, "QUIRE_CONTENT_MEMORY_MB", pool.memoryMb),
    },
    pdf: {
      ...pdf,
      timeoutMs: positiveInteger(env, "QUIRE_PDF_TIMEOUT_MS", pdf.timeoutMs),
      memoryMb: positiveInteger(env, "QUIRE_PDF_MEMORY_MB", pdf.memoryMb),
    },
    cacheBytes,
  };
}

function filesFrom(env: NodeJS.ProcessEnv): FilesConfig {
  const maxUploadBytes = Number(env.QUIRE_MAX_UPLOAD_BYTES ?? 25 * 1024 * 1024);
  if (!Number.isInteger(maxUploadBytes) || maxUploadBytes <= 0)
    throw new Error(
      `QUIRE_MAX_UPLOAD_BYTES must be a positive number of bytes, not "${env.QUIRE_MAX_UPLOAD_BYTES}"`,
    );
  const bucket = env.QUIRE_FILES_S3_BUCKET;
  return {
    // With a PostgreSQL URL there is no data directory: files go beside where the server was started.
    directory: userPath(env.QUIRE_FILES_DIR ?? join(dataDirectoryFrom(env), "files"), env),
    ...(bucket && {
      s3: {
        bucket,
        ...(env.QUIRE_FILES_S3_ENDPOINT && { endpoint: env.QUIRE_FILES_S3_ENDPOINT }),
        region: env.QUIRE_FILES_S3_REGION ?? env.AWS_REGION ?? "us-east-1",
        prefix: env.QUIRE_FILES_S3_PREFIX ?? "",
      },
    }),
    maxUploadBytes,
  };
}

/**
 * A path the user gave, made absolute from the directory where they typed the command: npm runs
 * workspace scripts (`npm start`, `npm run cli`) in the package's folder, and tells that directory
 * in INIT_CWD.
 */
export function userPath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.INIT_CWD ?? process.cwd(), path);
}

const dataDirectoryFrom = (env: NodeJS.ProcessEnv) => userPath(env.QUIRE_DATA_DIR ?? "data", env);

function secretKeyFrom(env: NodeJS.ProcessEnv): string | undefined {
  const key = env.QUIRE_SECRET_KEY;
  if (key !== undefined && key.length < 32)
    throw new Error("QUIRE_SECRET_KEY must be at least 32 characters");
  if (key === undefined && env.NODE_ENV === "production")
    throw new Error("QUIRE_SECRET_KEY is required in production (32 characters or more)");
  return key;
}

/** `QUIRE_GIT_TIMEOUT_MS`: below the jobs' lease, so that a running operation is never taken over. */
function gitTimeoutFrom(env: NodeJS.ProcessEnv): number {
  const timeoutMs = positiveInteger(env, "QUIRE_GIT_TIMEOUT_MS", 4 * 60 * 1000);
  const leaseMs = positiveInteger(env, "QUIRE_JOB_LEASE_MS", 5 * 60 * 1000);
  if (timeoutMs >= leaseMs)
    throw new Error(
      `QUIRE_GIT_TIMEOUT_MS (${timeoutMs}) must be shorter than QUIRE_JOB_LEASE_MS (${leaseMs})`,
    );
  return timeoutMs;
}

function rateLimitFrom(env: NodeJS.ProcessEnv): number {
  const limit = Number(env.QUIRE_RATE_LIMIT ?? 1200);
  if (!Number.isInteger(limit) || limit < 0)
    throw new Error(
      `QUIRE_RATE_LIMIT must be a number of requests per minute (0: no limit), not "${env.QUIRE_RATE_LIMIT}"`,
    );
  return limit;
}

function allowedPrivateAddressesFrom(env: NodeJS.ProcessEnv): string[] {
  try {
    return parseAddressList(env.QUIRE_FETCH_ALLOW_PRIVATE ?? "");
  } catch (err) {
    throw new Error(`QUIRE_FETCH_ALLOW_PRIVATE: ${(err as Error).message}`);
  }
}

/** The database location fit for logs: a URL's password, in its user part or query, shown as `***`. */
export function databaseForLog(location: string): string {
  // A directory of the SQLite file holds no secret.
  if (!location.includes("://")) return location;
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return "(unparseable database URL)";
  }
  if (url.password) url.password = "***";
  if (url.searchParams.has("password")) url.searchParams.set("password", "***");
  return url.href;
}
