import { useId, useState } from "react";
import { type MessageKey, t } from "../i18n/index.js";

const THEMES = ["system", "light", "dark"] as const;
type Theme = (typeof THEMES)[number];
const STORED_THEME = "quire.theme";

const LABELS: Record<Theme, MessageKey> = {
  system: "theme.system",
  light: "theme.light",
  dark: "theme.dark",
};

const themeOf = (value: string | null): Theme => THEMES.find((theme) => theme === value) ?? "system";
const storedTheme = (): Theme => themeOf(localStorage.getItem(STORED_THEME));

/** Puts `theme` on the document: the style sheet follows the system unless `data-theme` says otherwise. */
export function applyTheme(theme: Theme = storedTheme()): void {
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

/** The theme: the system's (light or dark, as it changes), or always light, or always dark. Kept per browser. */
export function ThemeSwitch() {
  const id = useId();
  const [theme, setTheme] = useState(storedTheme);
  const choose = (chosen: Theme) => {
    localStorage.setItem(STORED_THEME, chosen);
    applyTheme(chosen);
    setTheme(chosen);
  };
  return (
    <div className="theme-switch">
      <label htmlFor={id}>{t("theme.label")}</label>
      <select id={id} value={theme} onChange={(event) => choose(themeOf(event.target.value))}>
        {THEMES.map((option) => (
          <option key={option} value={option}>
            {t(LABELS[option])}
          </option>
        ))}
      </select>
    </div>
  );
}
