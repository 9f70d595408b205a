import { NavLink } from "react-router";
import { type MessageKey, t } from "../i18n/index.js";

/**
 * A row of links to a screen's tabs, named `label`; the open one is `aria-current`. `end`: a tab is
 * open only at its own path, not below it (for a tab at the screen's own path).
 */
export function TabNav({
  label,
  tabs,
  to,
  end = false,
}: {
  label: string;
  tabs: readonly { tab: string; label: MessageKey }[];
  to(tab: string): string;
  end?: boolean;
}) {
  return (
    <nav className="tab-nav" aria-label={label}>
      <ul>
        {tabs.map((tab) => (
          <li key={tab.tab}>
            <NavLink to={to(tab.tab)} end={end}>
              {t(tab.label)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
