/**
 * The public entry of the `teams` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { teamsArea } from "./area.js";
export { presentTeam } from "./presenter.js";
export {
  listTeamsOfMember,
  nonMembers,
  removeFromTeamsOf,
  type TeamRow,
  teams,
  unknownIds,
  upsertTeamMember,
} from "./store.js";
