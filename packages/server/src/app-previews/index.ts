/**
 * The public entry of the `app-previews` area: what other areas, `commands/` and the top level may use.
 * Nothing: the area serves the app and the previews through its routes (`area.ts`), and its modules
 * are private (the root `biome.json` fails the lint on an import of one from another area).
 */
export {};
