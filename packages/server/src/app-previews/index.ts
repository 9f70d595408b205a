/**
 * The public entry of the `app-previews` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`routes.ts`, `sessions.ts`, `tables.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { type PreviewView, renderPreview } from "./view.js";
