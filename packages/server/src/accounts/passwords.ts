import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";

/**
 * argon2id at OWASP's minimum (Password Storage Cheat Sheet: m = 19 MiB, t = 2, p = 1): about 20 ms
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

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2_PARAMETERS);

/**
 * A hash of nothing anyone knows, checked when the email names no account, so that an unknown email
 * costs the same time as a wrong password and the answer tells neither apart.
 */
let decoy: Promise<string> | undefined;

/** Whether `password` matches `stored` (a PHC string); without a stored hash, false after the same work. */
export async function passwordMatches(stored: string | undefined, password: string): Promise<boolean> {
  if (stored === undefined) {
    decoy ??= hashPassword(randomBytes(16).toString("hex"));
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

/** Why a new password is refused, or undefined when it may be used. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `A password needs at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `A password has at most ${PASSWORD_MAX_LENGTH} characters.`;
  return undefined;
}
