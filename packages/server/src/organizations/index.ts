/**
 * The public entry of the `organizations` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { onOrganization } from "./access.js";
export { canTransferOut } from "./policy.js";
export { type OrganizationCaller, presentOrganization } from "./presenter.js";
export {
  forgetDefaultContentSite,
  insertOrganization,
  membershipIn,
  type NewOrganization,
  newOrganization,
  type OrganizationRow,
  organizationForCaller,
  organizationMergeRules,
} from "./store.js";
