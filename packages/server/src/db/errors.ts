import { ApiError } from "../http/errors.js";
import { PLAN_CHANGED } from "./database.js";

/** PostgreSQL SQLSTATEs and SQLite result codes of a row that collides with a unique key. */
const UNIQUE_VIOLATIONS = new Set(["23505", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"]);
const FOREIGN_KEY_VIOLATIONS = new Set(["23503", "SQLITE_CONSTRAINT_FOREIGNKEY"]);

/** PostgreSQL refusing a value that SQLite would have stored. */
const INVALID_TEXT: Record<string, string> = {
  "22P02": "A value is not in the form the field takes.",
  "22021": "Text must be valid UTF-8 without NUL characters.",
  "22001": "A value is too long.",
};

/** The database cannot be reached, or is restarting, overloaded or too slow: worth a retry. */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
  "57014", // query_canceled, as by statement_timeout
  "SQLITE_BUSY",
]);
/**
 * pg reports these without a code. A statement on a connection that broke or was closed under it
 * (such as the rollback of a transaction whose connection the server ended) fails with the last two.
 */
const UNAVAILABLE_MESSAGE =
  /^(timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|Client was closed and is not queryable)/;

/**
 * The answer to an error of the database driver, or undefined for one that is a bug. Rules are by
 * kind, never by table: any unique violation means a concurrent request created the same thing.
 */
export function apiErrorFromDatabase(err: unknown): ApiError | undefined {
  for (let cause = err; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") {
      if (UNIQUE_VIOLATIONS.has(code))
        return new ApiError(409, "A resource with the same unique value already exists.");
      if (FOREIGN_KEY_VIOLATIONS.has(code))
        return new ApiError(409, "A resource it refers to was changed or deleted meanwhile.");
      const invalid = INVALID_TEXT[code];
      if (invalid) return new ApiError(400, invalid);
      if (UNAVAILABLE_CODES.has(code) || code.startsWith("SQLITE_BUSY_")) return unavailable();
      // A prepared statement whose columns a migration changed: prepared anew on the next try.
      if (code === PLAN_CHANGED && cause.message.startsWith("cached plan must not change result type"))
        return unavailable();
    }
    if (UNAVAILABLE_MESSAGE.test(cause.message)) return unavailable();
  }
  return undefined;
}

const unavailable = () => new ApiError(503, "The database is unavailable; try again.");
