/**
 * The public entry of the `change-requests` area: what other areas, `commands/` and the top level
 * (`areas.ts`, `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`,
 * ...) are private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { type MemberChangeRequest, onChangeRequest } from "./access.js";
export {
  editChangeRequestContent,
  type NewPage,
  noContentEdit,
  type PreparedEdit,
  prepareContentEdit,
  type ReplacingPage,
  replaceChangeRequestContent,
} from "./edits.js";
export { changeRequestEventData } from "./events.js";
export { canEditChangeRequests } from "./policy.js";
export { presentChangeRequest } from "./presenter.js";
export {
  baseRevisionOf,
  type ChangeRequestRow,
  changeRequestMergedAs,
  changeRequestOf,
  changeRequestsMergedAs,
  contributorsOf,
  insertChangeRequest,
  lockSpace,
  updateChangeRequest,
} from "./store.js";
export type { ChangeRequestTable } from "./tables.js";
export { changeChangeRequest } from "./update.js";
