import { closeAllSessions, closeOtherSessions } from "../auth/sessions.js";
import { recordUserEvent } from "../auth/user-events.js";
import { withRequestOrigin } from "../http/request-context.js";
import type { Services } from "../services.js";
import { hashPassword } from "./passwords.js";
import { storePassword } from "./store.js";

/**
 * Sets a user's password and signs out their sessions: all of them after a reset by email (whoever
 * knew the old password is out), all but `keepSession` when they changed it while signed in. The
 * hash is made before the transaction, off the event loop; the rest commits at once, with its events.
 */
export async function setPassword(
  services: Pick<Services, "transaction" | "clock" | "ids">,
  userId: string,
  password: string,
  options: { keepSession?: string | undefined; address?: string | undefined },
): Promise<void> {
  const hash = await hashPassword(password);
  await withRequestOrigin(options.address === undefined ? {} : { address: options.address }, () =>
    services.transaction(async (tx) => {
      await storePassword(tx, userId, hash, services.clock.now());
      const closed =
        options.keepSession === undefined
          ? await closeAllSessions(tx, userId)
          : await closeOtherSessions(tx, userId, options.keepSession);
      await recordUserEvent(tx, services, userId, {
        type: "password_changed",
        actorId: userId,
        data: { user: userId },
      });
      if (closed > 0)
        await recordUserEvent(tx, services, userId, {
          type: "session_revoked",
          actorId: userId,
          data: { user: userId },
        });
    }),
  );
}
