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
 * Ids start with the creation time and a per-process sequence, so that ids made by one server sort
 * in creation order even within a millisecond (keyset paging by id then lists oldest first and stays
 * stable under concurrent inserts), and end with random characters so that servers never collide.
 */
export function timeOrderedIds(clock: Clock = systemClock): IdGenerator {
  let lastTime = "";
  let sequence = 0;
  return {
    next() {
      const time = clock.now().getTime().toString(36).padStart(9, "0");
      sequence = time === lastTime ? sequence + 1 : 0;
      lastTime = time;
      const random = [...randomBytes(8)].map((byte) => ID_ALPHABET[byte % 36]).join("");
      return `${time}${sequence.toString(36).padStart(4, "0")}${random}`;
    },
  };
}
