import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { recordUserEvent } from "../auth/user-events.js";
import { fromJson, type JsonText, timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { UserTable } from "../db/schema.js";
import { badRequest, conflict } from "../http/errors.js";
import { decryptSecret, encryptSecrets } from "../integrations/index.js";
import type { Services } from "../services.js";
import {
  activeFactors,
  deleteFactorRow,
  deleteRecoveryCodes,
  deleteUnconfirmedTotp,
  hasSecondFactor,
  insertFactor,
  passkeyOf,
  recordPasskeyUse,
  replaceRecoveryCodes,
  storePasskeyChallenge,
  takePasskeyChallenge,
  unconfirmedTotp,
  useTotpStep,
} from "./factors-store.js";
import type { UserFactorTable } from "./tables.js";
import { newTotpSecret, totpStep, totpUri } from "./totp.js";

/** The name a sealed TOTP secret is bound to, with the factor's id. */
const TOTP_SECRET = "totp_secret";
/** How long the options for adding a passkey work. */
const PASSKEY_CHALLENGE_MS = 5 * 60 * 1000;

/** The relying party of WebAuthn: the public URL's host, and its origin. */
const relyingParty = ({ urls }: Services) => {
  const url = new URL(urls.page(""));
  return { rpID: url.hostname, origin: url.origin };
};

const openTotpSecret = ({ secretKey }: Services, factor: UserFactorTable): string =>
  decryptSecret(
    secretKey,
    factor.id,
    TOTP_SECRET,
    fromJson(factor.totp_secret as JsonText<Record<string, string>>)[TOTP_SECRET] ?? "",
  );

const recordFactorEvent = (
  tx: Db,
  services: Services,
  type: "factor_added" | "factor_removed",
  factor: UserFactorTable,
) =>
  recordUserEvent(tx, services, factor.user_id, {
    type,
    actorId: factor.user_id,
    data: { user: factor.user_id, factor: factor.id, kind: factor.kind },
  });

/**
 * Starts setting up an authenticator app: a new secret, replacing any other not confirmed yet. It
 * counts once a code of it is confirmed (`confirmTotp`).
 */
export async function startTotp(
  services: Services,
  user: UserTable,
): Promise<{ secret: string; uri: string }> {
  const secret = newTotpSecret();
  const id = services.ids.next();
  await services.transaction(async (tx) => {
    await deleteUnconfirmedTotp(tx, user.id);
    await insertFactor(tx, {
      id,
      user_id: user.id,
      kind: "totp",
      name: "Authenticator app",
      created_at: services.now(),
      confirmed_at: null,
      last_used_at: null,
      totp_secret: encryptSecrets(services.secretKey, id, { [TOTP_SECRET]: secret }),
      totp_last_step: null,
      credential_id: null,
      public_key: null,
      sign_count: null,
      transports: null,
    });
  });
  return { secret, uri: totpUri(secret, user.email) };
}

/** The secret of the authenticator app a user is setting up, to show again; undefined without one. */
export async function totpBeingSetUp(
  services: Services,
  user: UserTable,
): Promise<{ secret: string; uri: string } | undefined> {
  const factor = await unconfirmedTotp(services.db, user.id);
  if (!factor) return undefined;
  const secret = openTotpSecret(services, factor);
  return { secret, uri: totpUri(secret, user.email) };
}

/**
 * Turns on the authenticator app being set up with one of its codes, and returns new recovery codes
 * (replacing any the user had), in clear this once. 400 for a wrong code, 409 without a setup.
 */
export async function confirmTotp(
  services: Services,
  userId: string,
  code: string,
  name?: string,
): Promise<string[]> {
  const factor = await unconfirmedTotp(services.db, userId);
  if (!factor) throw conflict("No authenticator app is being set up: start again.");
  const now = services.clock.now();
  const step = totpStep(openTotpSecret(services, factor), code, now);
  if (step === undefined) throw badRequest("That code is not the authenticator app's code of now.");
  return services.transaction(async (tx) => {
    if (!(await useTotpStep(tx, factor.id, step, now, name ?? factor.name)))
      throw badRequest("That code was used already: wait for the next one.");
    await recordFactorEvent(tx, services, "factor_added", factor);
    return replaceRecoveryCodes(tx, services, userId);
  });
}

/** Whether `code` is the code of now of one of the user's authenticator apps, used for the first time. */
export async function acceptTotpCode(services: Services, userId: string, code: string): Promise<boolean> {
  const now = services.clock.now();
  for (const factor of await activeFactors(services.db, userId)) {
    if (factor.kind !== "totp") continue;
    const step = totpStep(openTotpSecret(services, factor), code, now);
    if (step !== undefined && (await useTotpStep(services.db, factor.id, step, now))) return true;
  }
  return false;
}

const descriptorOf = (factor: UserFactorTable) => ({
  id: factor.credential_id ?? "",
  ...(factor.transports !== null && { transports: JSON.parse(factor.transports) as string[] }),
});

const passkeysOf = async (db: Db, userId: string) =>
  (await activeFactors(db, userId)).filter((factor) => factor.kind === "passkey");

/** Options for the browser to create a passkey with; their challenge is kept for five minutes. */
export async function startPasskey(
  services: Services,
  user: UserTable,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const options = await generateRegistrationOptions({
    rpName: "Quire",
    rpID: relyingParty(services).rpID,
    userName: user.email,
    userDisplayName: user.display_name,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: (await passkeysOf(services.db, user.id)).map(descriptorOf),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await storePasskeyChallenge(
    services.db,
    user.id,
    options.challenge,
    timestamp(services.clock.now(), PASSKEY_CHALLENGE_MS),
  );
  return options;
}

/** Adds the passkey the browser created with the last options; 400 when it does not answer them. */
export async function registerPasskey(
  services: Services,
  userId: string,
  response: RegistrationResponseJSON,
  name = "Passkey",
): Promise<UserFactorTable> {
  const challenge = await takePasskeyChallenge(services.db, userId, services.clock.now());
  if (!challenge) throw badRequest("These passkey options have expired or were used: start again.");
  const { rpID, origin } = relyingParty(services);
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch((err: unknown) => {
    throw badRequest(`The passkey was refused: ${err instanceof Error ? err.message : String(err)}`);
  });
  if (!verification.verified) throw badRequest("The passkey was refused.");
  const { credential } = verification.registrationInfo;
  const now = services.now();
  const factor: UserFactorTable = {
    id: services.ids.next(),
    user_id: userId,
    kind: "passkey",
    name,
    created_at: now,
    confirmed_at: now,
    last_used_at: null,
    totp_secret: null,
    totp_last_step: null,
    credential_id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString("base64url"),
    sign_count: credential.counter,
    transports: credential.transports ? JSON.stringify(credential.transports) : null,
  };
  await services.transaction(async (tx) => {
    await insertFactor(tx, factor);
    await recordFactorEvent(tx, services, "factor_added", factor);
  });
  return factor;
}

/** Options for the browser to sign in with one of the user's passkeys. */
export async function passkeySignInOptions(
  services: Services,
  userId: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: relyingParty(services).rpID,
    allowCredentials: (await passkeysOf(services.db, userId)).map(descriptorOf),
    userVerification: "preferred",
  });
}

/** Whether the browser's answer to `challenge` was signed by one of the user's passkeys. */
export async function acceptPasskey(
  services: Services,
  userId: string,
  response: AuthenticationResponseJSON,
  challenge: string,
): Promise<boolean> {
  const factor = await passkeyOf(services.db, userId, response.id);
  if (!factor?.public_key || factor.confirmed_at === null) return false;
  const { rpID, origin } = relyingParty(services);
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: {
      ...descriptorOf(factor),
      publicKey: new Uint8Array(Buffer.from(factor.public_key, "base64url")),
      counter: Number(factor.sign_count ?? 0),
    },
    requireUserVerification: false,
  }).catch(() => undefined);
  if (!verification?.verified) return false;
  await recordPasskeyUse(
    services.db,
    factor.id,
    verification.authenticationInfo.newCounter,
    services.clock.now(),
  );
  return true;
}

/** Removes one of a user's factors; the recovery codes go with the last. False when there is no such factor. */
export function removeFactor(services: Services, userId: string, factorId: string): Promise<boolean> {
  return services.transaction(async (tx) => {
    const factor = await deleteFactorRow(tx, userId, factorId);
    if (!factor) return false;
    // An authenticator app never confirmed was never a factor: its removal changes nothing.
    if (factor.confirmed_at !== null) await recordFactorEvent(tx, services, "factor_removed", factor);
    if (!(await hasSecondFactor(tx, userId))) await deleteRecoveryCodes(tx, userId);
    return true;
  });
}

/** New recovery codes in place of the user's; 409 without a factor for them to stand in for. */
export function newRecoveryCodes(services: Services, userId: string): Promise<string[]> {
  return services.transaction(async (tx) => {
    if (!(await hasSecondFactor(tx, userId)))
      throw conflict("Recovery codes stand in for a second factor: add one first.");
    return replaceRecoveryCodes(tx, services, userId);
  });
}
