import type { Request, Response } from "express";
import { recordFailedSignIn } from "../audit/index.js";
import { sessionCookie } from "../auth/authenticate.js";
import { isNewDevice, openSession, SESSION_MAX_AGE_MS, type SignInMethod } from "../auth/sessions.js";
import { recordUserEvent } from "../auth/user-events.js";
import type { UserTable } from "../db/schema.js";
import { withRequestOrigin } from "../http/request-context.js";
import { newSignInMail, sendInBackground } from "../mail/index.js";
import type { Services } from "../services.js";
import { SECURITY_PAGE } from "../urls.js";
import { hasSecondFactor, organizationRequiringSecondFactor } from "./factors-store.js";
import { passwordMatches } from "./passwords.js";
import { accountByEmail } from "./store.js";

/** Where a sign-in comes from: what the list of sessions shows, and what audit events name. */
export interface SignInOrigin {
  device?: string | undefined;
  address?: string | undefined;
}

/**
 * Opens a session for a user who proved who they are, recording `signed_in` in the same transaction,
 * and returns the cookie's secret. A device new to them gets them a mail saying so, once committed.
 */
async function beginSession(
  services: Services,
  user: UserTable,
  method: SignInMethod,
  origin: SignInOrigin,
): Promise<string> {
  const { secret, newDevice } = await withRequestOrigin(
    origin.address === undefined ? {} : { address: origin.address },
    () =>
      services.transaction(async (tx) => {
        const newDevice = await isNewDevice(tx, user.id, origin.device);
        const session = await openSession(tx, services, { userId: user.id, method, ...origin });
        await recordUserEvent(tx, services, user.id, {
          type: "signed_in",
          actorId: user.id,
          data: { user: user.id, session: session.id, method },
        });
        return { secret: session.secret, newDevice };
      }),
  );
  if (newDevice)
    sendInBackground(services.mailer, services.logger, {
      to: user.email,
      ...newSignInMail({
        when: services.clock.now(),
        device: origin.device?.slice(0, 200) || "a browser that does not name itself",
        ...(origin.address !== undefined && { address: origin.address }),
      }),
    });
  return secret;
}

/** Signs the browser of `req` in as `user`: a new session, and its cookie on `res`. */
export async function signInBrowser(
  services: Services,
  req: Request,
  res: Response,
  user: UserTable,
  method: SignInMethod,
): Promise<void> {
  const secret = await beginSession(services, user, method, {
    device: req.headers["user-agent"],
    address: req.socket.remoteAddress,
  });
  const secure = new URL(services.urls.page("")).protocol === "https:";
  res.append("Set-Cookie", sessionCookie(secret, { secure, maxAgeMs: SESSION_MAX_AGE_MS }));
}

/**
 * The user whose email and password these are, or undefined. An unknown email, an account without a
 * password and a wrong password cost the same argon2 work and get the same answer; a failure on a
 * known account is an audit event in each of its organizations.
 */
export async function userWithPassword(
  services: Services,
  email: string,
  password: string,
  origin: SignInOrigin,
): Promise<UserTable | undefined> {
  const account = await accountByEmail(services.db, email);
  const matches = await passwordMatches(account?.password_hash ?? undefined, password);
  if (account && matches) {
    const { password_hash: _hash, ...user } = account;
    return user;
  }
  const address = origin.address === undefined ? {} : { address: origin.address };
  if (!account) await recordFailedSignIn(services.db, services, { operationId: "signIn", ...address });
  else
    await withRequestOrigin(address, () =>
      services.transaction((tx) =>
        recordUserEvent(tx, services, account.id, {
          type: "sign_in_failed",
          data: { operation: "signIn", method: "password", user: account.id },
        }),
      ),
    );
  return undefined;
}

/**
 * Where a person just signed in goes: to add a second factor when an organization of theirs requires
 * one they lack (the API refuses them everything else meanwhile), else `next`.
 */
export async function landingAfterSignIn(services: Services, userId: string, next: string): Promise<string> {
  const required =
    (await organizationRequiringSecondFactor(services.db, userId)) !== undefined &&
    !(await hasSecondFactor(services.db, userId));
  return required ? new URL(services.urls.page(SECURITY_PAGE)).pathname : next;
}
