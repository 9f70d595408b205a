import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { hash, verify } from "@node-rs/argon2";
import { ApiError } from "../http/errors.js";

/**
 * argon2id at OWASP's minimum (Password Storage Cheat Sheet: m = 19 MiB, t = 2, p = 1): about 10 ms
 * of one core a hash, computed on libuv's thread pool, never on the event loop. Heavier settings
 * would cost a 2-core server its other requests under a burst of sign-ins (see the sign-in bench).
 */
export const ARGON2_PARAMETERS = {
  // Algorithm.Argon2id: a const enum, which this build cannot import.
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * How many hashes run at once: all cores but one. Left to libuv's pool (4 threads), a burst of
 * sign-ins took both cores of a 2-core server and the event loop waited for one (`/health` p99 past a
 * second at 50 sign-ins a second, against 72 ms with one hash at a time: `npm run bench:sign-in`).
 */
const HASHING_SLOTS = Math.max(1, availableParallelism() - 1);
/** Past this many waiting, a sign-in is answered 503 at once rather than after a growing wait. */
const MOST_WAITING = 32 * HASHING_SLOTS;

let running = 0;
const waiting: Array<() => void> = [];

/** Runs one hash or verification when a slot is free; 503 when too many already wait. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASHING_SLOTS) {
    if (waiting.length >= MOST_WAITING)
      throw new ApiError(503, "The server is checking many passwords at once: try again in a few seconds.", {
        headers: { "retry-after": "5" },
      });
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running += 1;
  try {
    return await work();
  } finally {
    // The slot passes to the next waiting, or is freed.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

export const hashPassword = (password: string): Promise<string> =>
  inTurn(() => hash(password, ARGON2_PARAMETERS));

/**
 * A hash of nothing anyone knows, checked when the email names no account, so that an unknown email
 * costs the same time as a wrong password and the answer tells neither apart.
 */
let decoy: Promise<string> | undefined;

/** Whether `password` matches `stored` (a PHC string); without a stored hash, false after the same work. */
export async function passwordMatches(stored: string | undefined, password: string): Promise<boolean> {
  if (stored === undefined) {
    // Made once, outside the turns: a refusal must not be what every later unknown email gets.
    decoy ??= hash(randomBytes(16).toString("hex"), ARGON2_PARAMETERS);
    const decoyHash = await decoy;
    await inTurn(() => verify(decoyHash, password).catch(() => false));
    return false;
  }
  return inTurn(() => verify(stored, password).catch(() => false));
}

/** Why a new password is refused, or undefined when it may be used. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `A password needs at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `A password has at most ${PASSWORD_MAX_LENGTH} characters.`;
  return undefined;
}
