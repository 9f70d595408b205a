import type { AreaHandlers, Services } from "../services.js";
import { presentUser } from "./presenter.js";

export function userHandlers({ urls }: Services): AreaHandlers<"getAuthenticatedUser"> {
  return {
    getAuthenticatedUser: ({ caller }) => ({ status: 200, body: presentUser(caller.user, urls) }),
  };
}
