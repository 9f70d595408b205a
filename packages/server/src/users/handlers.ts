import { type AccessMap, type AreaHandlers, anyCaller } from "../area.js";
import type { Services } from "../services.js";
import { presentUser } from "./presenter.js";

export const userAccess = {
  getAuthenticatedUser: anyCaller,
} satisfies AccessMap;

export function userHandlers({ urls }: Services): AreaHandlers<typeof userAccess> {
  return {
    getAuthenticatedUser: ({ caller }) => ({ status: 200, body: presentUser(caller.user, urls) }),
  };
}
