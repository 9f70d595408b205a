import { defineArea } from "../area.js";
import { changeRequestAccess, changeRequestHandlers } from "./handlers.js";

/** Operations of `spec/change-requests.tsp`; each moves from `pending` to `handlers` when it is written. */
export const changeRequestsArea = defineArea({
  name: "change-requests",
  access: changeRequestAccess,
  handlers: changeRequestHandlers,
});
