import en from "./en.json";

export type MessageKey = keyof typeof en;

/** The English string for `key`, with each `{name}` replaced by `values.name`. */
export function t(key: MessageKey, values: Record<string, string> = {}): string {
  return en[key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
