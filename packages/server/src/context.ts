import { randomBytes } from "node:crypto";

/** The source of "now" for everything the server stores; tests inject a fixed or stepping clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Makes the opaque ids of every resource; tests inject a predictable one. */
export interface IdGenerator {
  next(): string;
}

const ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/**
 * Ids start with the creation time so that they sort in creation order (keyset paging by id then
 * lists oldest first and stays stable under concurrent inserts), and end with 64 random bits.
 */
export function timeOrderedIds(clock: Clock = systemClock): IdGenerator {
  return {
    next() {
      const time = clock.now().getTime().toString(36).padStart(9, "0");
      const random = [...randomBytes(12)].map((byte) => ID_ALPHABET[byte % 36]).join("");
      return `${time}${random}`;
    },
  };
}
