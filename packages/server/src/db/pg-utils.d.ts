// pg ships no types for its utilities; this is the one the driver uses (see `CommitWith`).
declare module "pg/lib/utils.js" {
  /** A JavaScript value as pg writes it as a text parameter: a string, a Buffer, or null. */
  export function prepareValue(value: unknown): string | Buffer | null;
}
