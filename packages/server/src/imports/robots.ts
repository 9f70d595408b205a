/** The user agent Quire's crawler answers to in robots.txt (and sends: see src/net/fetch.ts). */
const AGENT = "quire";

interface Rule {
  allow: boolean;
  path: string;
}

/**
 * The rules of a robots.txt (RFC 9309) for Quire: those of the group naming `quire`, or else of the
 * `*` group. A path is allowed unless its longest matching rule disallows it (an allow wins a tie);
 * `*` matches any characters and a final `$` the end of the path.
 */
export function robotsRules(text: string): (path: string) => boolean {
  const groups = new Map<string, Rule[]>();
  let agents: string[] = [];
  let inRules = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, "").trim();
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent") {
      // Consecutive user-agent lines share one group; one after rules starts a new group.
      if (inRules) agents = [];
      inRules = false;
      agents.push(value.toLowerCase());
      for (const agent of agents) if (!groups.has(agent)) groups.set(agent, []);
    } else if (key === "allow" || key === "disallow") {
      inRules = true;
      // An empty Disallow allows everything: it is no rule.
      if (value === "") continue;
      for (const agent of agents) groups.get(agent)?.push({ allow: key === "allow", path: value });
    }
  }
  const rules = groups.get(AGENT) ?? groups.get("*") ?? [];
  const matchers = rules.map((rule) => ({ ...rule, pattern: patternOf(rule.path) }));
  return (path) => {
    let best: { allow: boolean; length: number } = { allow: true, length: -1 };
    for (const rule of matchers) {
      if (!rule.pattern.test(path)) continue;
      const length = rule.path.length;
      if (length > best.length || (length === best.length && rule.allow))
        best = { allow: rule.allow, length };
    }
    return best.allow;
  };
}

function patternOf(path: string): RegExp {
  const anchored = path.endsWith("$");
  const body = (anchored ? path.slice(0, -1) : path)
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}${anchored ? "$" : ""}`);
}
