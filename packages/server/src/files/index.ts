/**
 * The public entry of the `files` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { inspectFile } from "./inspect.js";
export { presentFile, publicBase } from "./presenter.js";
export {
  addFile,
  type FileScope,
  fileScopeArgs,
  listFilesShownAt,
  listVisibleFiles,
  type NewFile,
  revisionFiles,
  visibleFile,
  visibleFilesById,
} from "./store.js";
export type { FileTable } from "./tables.js";
