import type { Schema } from "@quire/api-types";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { type AccessMap, type AreaHandlers, anyCaller } from "../area.js";
import type { Caller } from "../auth/caller.js";
import { closeAllSessions, closeSession, listSessions } from "../auth/sessions.js";
import { createToken, listTokens, revokeToken } from "../auth/tokens.js";
import { recordUserEvent } from "../auth/user-events.js";
import { timestamp } from "../db/codecs.js";
import { badRequest, forbidden, notFound } from "../http/errors.js";
import type { Services } from "../services.js";
import { presentUser, setDisplayName } from "../users/index.js";
import {
  confirmTotp,
  newRecoveryCodes,
  registerPasskey,
  removeFactor,
  startPasskey,
  startTotp,
} from "./factors.js";
import { activeFactors, factorOf, recoveryCodesLeft } from "./factors-store.js";
import { setPassword } from "./password-change.js";
import { passwordMatches } from "./passwords.js";
import { presentFactor, presentSession, presentToken } from "./presenter.js";
import { passwordHashOf } from "./store.js";

/** Without a password, a factor is removed only from a session this young: whoever holds it just signed in. */
const FRESH_SESSION_MS = 10 * 60 * 1000;

/** Every operation is about the caller's own account. */
export const accountAccess = {
  updateAuthenticatedUser: anyCaller,
  // A token may make tokens, as GitBook's may: each is the caller's own, named in its event.
  listUserTokens: anyCaller,
  createUserToken: anyCaller,
  revokeUserToken: anyCaller,
  listUserSessions: anyCaller,
  revokeUserSession: anyCaller,
  revokeUserSessions: anyCaller,
  changeUserPassword: anyCaller,
  listUserFactors: anyCaller,
  startUserTotp: anyCaller,
  confirmUserTotp: anyCaller,
  startUserPasskey: anyCaller,
  registerUserPasskey: anyCaller,
  deleteUserFactor: anyCaller,
  regenerateUserRecoveryCodes: anyCaller,
} satisfies AccessMap;

export function accountHandlers(services: Services): AreaHandlers<typeof accountAccess> {
  const { db, clock, urls } = services;

  /** Refuses (403) a caller who does not prove, now, that they hold the account: its password, or else a session just begun. */
  const proveHolder = async (caller: Caller, password: string | undefined) => {
    const current = await passwordHashOf(db, caller.user.id);
    if (current !== undefined) {
      if (password === undefined)
        throw badRequest("body/currentPassword is required: the account has a password.");
      if (!(await passwordMatches(current, password))) throw forbidden("The current password is not right.");
      return;
    }
    const session =
      caller.sessionId === undefined
        ? undefined
        : await db
            .selectFrom("sessions")
            .select("created_at")
            .where("id", "=", caller.sessionId)
            .where("created_at", ">", timestamp(clock.now(), -FRESH_SESSION_MS))
            .executeTakeFirst();
    if (!session) throw forbidden("Sign in again, then remove the factor within ten minutes.");
  };

  return {
    async updateAuthenticatedUser({ caller, body }) {
      // The contract asks for a character other than a space: what is left after trimming is never empty.
      const displayName = body.displayName.trim();
      await setDisplayName(db, caller.user.id, displayName);
      // The credential is remembered with its user for a second (`TOKEN_CACHE_TTL_MS`): the next
      // `GET /v1/user` made with it, the app's at once, reads the new name too.
      caller.user.display_name = displayName;
      return { status: 200, body: presentUser(caller.user, urls) };
    },

    async listUserTokens({ caller }) {
      return { status: 200, body: { items: (await listTokens(db, caller.user.id)).map(presentToken) } };
    },

    async createUserToken({ caller, body }) {
      const { secret, ...token } = await createToken(
        db,
        services,
        caller.user.id,
        body.label.trim(),
        caller.user.id,
      );
      return { status: 201, body: { ...presentToken(token), secret } };
    },

    async revokeUserToken({ caller, path }) {
      if (!(await revokeToken(db, services, path.tokenId, { userId: caller.user.id })))
        throw notFound("Token");
      return { status: 204, body: undefined };
    },

    async listUserSessions({ caller }) {
      const sessions = await listSessions(db, caller.user.id, clock.now());
      return { status: 200, body: { items: sessions.map((row) => presentSession(row, caller.sessionId)) } };
    },

    async revokeUserSession({ caller, path }) {
      await services.transaction(async (tx) => {
        if (!(await closeSession(tx, caller.user.id, path.sessionId))) throw notFound("Session");
        await recordUserEvent(tx, services, caller.user.id, {
          type: "session_revoked",
          actorId: caller.user.id,
          data: { user: caller.user.id, session: path.sessionId },
        });
      });
      return { status: 204, body: undefined };
    },

    async revokeUserSessions({ caller }) {
      await services.transaction(async (tx) => {
        if ((await closeAllSessions(tx, caller.user.id)) > 0)
          await recordUserEvent(tx, services, caller.user.id, {
            type: "session_revoked",
            actorId: caller.user.id,
            data: { user: caller.user.id },
          });
      });
      return { status: 204, body: undefined };
    },

    async changeUserPassword({ caller, body }) {
      const current = await passwordHashOf(db, caller.user.id);
      if (current !== undefined) {
        if (body.currentPassword === undefined)
          throw badRequest("body/currentPassword is required: the account has a password.");
        if (!(await passwordMatches(current, body.currentPassword)))
          throw forbidden("The current password is not right.");
      }
      await setPassword(services, caller.user.id, body.newPassword, { keepSession: caller.sessionId });
      return { status: 204, body: undefined };
    },

    async listUserFactors({ caller }) {
      const [factors, left] = await Promise.all([
        activeFactors(db, caller.user.id),
        recoveryCodesLeft(db, caller.user.id),
      ]);
      return { status: 200, body: { items: factors.map(presentFactor), recoveryCodesLeft: left } };
    },

    async startUserTotp({ caller }) {
      return { status: 200, body: await startTotp(services, caller.user) };
    },

    async confirmUserTotp({ caller, body }) {
      return {
        status: 200,
        body: { codes: await confirmTotp(services, caller.user.id, body.code, body.name) },
      };
    },

    async startUserPasskey({ caller }) {
      const options = await startPasskey(services, caller.user);
      return {
        status: 200,
        body: { options: options as unknown as Schema<"PasskeyRegistrationOptions">["options"] },
      };
    },

    async registerUserPasskey({ caller, body }) {
      const response = body.response as unknown as RegistrationResponseJSON;
      const factor = await registerPasskey(services, caller.user.id, response, body.name);
      return { status: 201, body: presentFactor(factor) };
    },

    async deleteUserFactor({ caller, path, body }) {
      // Unknown first: a factor of someone else is as missing as one that never was, whatever the proof.
      if (!(await factorOf(db, caller.user.id, path.factorId))) throw notFound("Factor");
      await proveHolder(caller, body?.currentPassword);
      if (!(await removeFactor(services, caller.user.id, path.factorId))) throw notFound("Factor");
      return { status: 204, body: undefined };
    },

    async regenerateUserRecoveryCodes({ caller }) {
      return { status: 200, body: { codes: await newRecoveryCodes(services, caller.user.id) } };
    },
  };
}
