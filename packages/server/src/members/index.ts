/**
 * The public entry of the `members` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { presentMember } from "./presenter.js";
export {
  addMembership,
  containsPattern,
  inOtherOrganization,
  lockMemberships,
  type MemberRow,
  type MembershipChange,
  members,
  type NewMembership,
  nonMembers,
  removeMembership,
  setMemberRole,
} from "./store.js";
