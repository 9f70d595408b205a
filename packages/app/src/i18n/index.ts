import account from "./en/account.json";
import changeRequest from "./en/change-request.json";
import common from "./en/common.json";
import content from "./en/content.json";
import editor from "./en/editor.json";
import people from "./en/people.json";
import settings from "./en/settings.json";
import sites from "./en/sites.json";
import space from "./en/space.json";

/** English: every string of the app, one file per screen; the keys every other locale may give. */
const english = {
  ...common,
  ...content,
  ...space,
  ...changeRequest,
  ...people,
  ...sites,
  ...settings,
  ...account,
  ...editor,
};

export type MessageKey = keyof typeof english;

/**
 * Every other locale is a folder beside `en/` with files of the same names: found here by the build,
 * so adding one needs no code. A key a locale lacks falls back to English.
 */
const bundles = import.meta.glob<Record<string, string>>("./*/*.json", { eager: true, import: "default" });

/** The first of the browser's languages the app has strings for, else English, with its strings. */
function localeFor(languages: readonly string[]): { language: string; messages: Record<string, string> } {
  for (const wanted of languages) {
    const language = wanted.toLowerCase().split("-")[0] ?? "";
    if (language === "en") break;
    const files = Object.entries(bundles).filter(([path]) => path.startsWith(`./${language}/`));
    if (files.length > 0)
      return { language, messages: Object.assign({}, english, ...files.map(([, strings]) => strings)) };
  }
  return { language: "en", messages: english };
}

const locale = localeFor(typeof navigator === "undefined" ? [] : navigator.languages);

/** The language the app speaks (for `<html lang>`). */
export const language = locale.language;

/** The string for `key` in the app's language, with each `{name}` replaced by `values.name`. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  const message = locale.messages[key] ?? english[key];
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}
