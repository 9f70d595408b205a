import { Secret, TOTP } from "otpauth";

/** RFC 6238 as every authenticator app does it: SHA-1, six digits, 30-second steps. */
const PERIOD_SECONDS = 30;
/** A code of the step before or after is accepted too: the phone's clock and the typing take time. */
const WINDOW = 1;

const totpOf = (secret: string, label = "") =>
  new TOTP({
    issuer: "Quire",
    label,
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_SECONDS,
  });

/** A new secret of 160 bits (RFC 4226's recommendation), in base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The `otpauth://` URI an authenticator app reads, naming the account by its email. */
export const totpUri = (secret: string, email: string): string => totpOf(secret, email).toString();

/** The time step `code` belongs to, within `WINDOW` steps of `now`; undefined when it is no code of now. */
export function totpStep(secret: string, code: string, now: Date): number | undefined {
  const delta = totpOf(secret).validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  return delta === null ? undefined : Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}
