import { type AccessMap, type AreaHandlers, anyCaller } from "../area.js";
import { closeAllSessions, closeSession, listSessions } from "../auth/sessions.js";
import { recordUserEvent } from "../auth/user-events.js";
import { badRequest, forbidden, notFound } from "../http/errors.js";
import type { Services } from "../services.js";
import { setPassword } from "./password-change.js";
import { passwordMatches } from "./passwords.js";
import { presentSession } from "./presenter.js";
import { passwordHashOf } from "./store.js";

/** Every operation is about the caller's own account. */
export const accountAccess = {
  listUserSessions: anyCaller,
  revokeUserSession: anyCaller,
  revokeUserSessions: anyCaller,
  changeUserPassword: anyCaller,
} satisfies AccessMap;

export function accountHandlers(services: Services): AreaHandlers<typeof accountAccess> {
  const { db, clock } = services;
  return {
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
  };
}
