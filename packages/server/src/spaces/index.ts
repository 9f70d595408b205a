/**
 * The public entry of the `spaces` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { onSpace } from "./access.js";
export { adjustSpaceActivity, changeRequestStatusActivity } from "./activity.js";
export { assertSpaceNotDeleted, canManageSpace } from "./policy.js";
export { presentSpace, presentSpaceFor } from "./presenter.js";
export {
  getSpace,
  insertSpace,
  listSpacesInCollection,
  listSpacesInOrganization,
  setSpaceGitSync,
  spaceById,
  spaceForCaller,
  updateSpace,
} from "./store.js";
