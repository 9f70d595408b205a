import type { Element, ElementContent, Root as HtmlRoot } from "hast";
import { toText } from "hast-util-to-text";
import { h } from "hastscript";
import { visit } from "unist-util-visit";

/**
 * What a page body's blocks become for its readers, made from its sanitized HTML (so the attributes
 * are ours, not its writer's).
 */

const hasClass = (node: ElementContent, className: string): node is Element =>
  node.type === "element" &&
  Array.isArray(node.properties.className) &&
  node.properties.className.includes(className);

const isBlank = (node: ElementContent) => node.type === "text" && node.value.trim() === "";

/** Text that names something: its whitespace collapsed, as an accessible name's is. */
const nameOf = (children: ElementContent[]) =>
  toText({ type: "element", tagName: "span", properties: {}, children }).replace(/\s+/g, " ").trim();

/**
 * GitBook's tabs (`<div class="tabs">` of `<section class="tab">`s, each titled by its
 * `<p class="tab-title">`) as WAI-ARIA's tabs: a list of buttons named by the titles, and their
 * panels. The first is shown without a script; the site's script switches them. Their class is their
 * own: the site's section links are `.tabs`.
 */
function toTabs(tabs: Element, n: number, unique: (id: string) => string): void {
  const buttons: Element[] = [];
  let m = 0;
  tabs.children = tabs.children.flatMap((child): ElementContent[] => {
    if (!hasClass(child, "tab")) return isBlank(child) ? [] : [child];
    const selected = m++ === 0;
    const [first] = child.children;
    const titled = first !== undefined && hasClass(first, "tab-title");
    const tabId = unique(`quire-tab-${n}-${m}`);
    const panelId = unique(`quire-panel-${n}-${m}`);
    buttons.push(
      h(
        "button",
        {
          type: "button",
          role: "tab",
          id: tabId,
          ariaControls: panelId,
          ariaSelected: String(selected),
          // One stop in the tab order for the list: the arrow keys move between its tabs.
          tabIndex: selected ? undefined : -1,
        },
        (titled && nameOf([first])) || `Tab ${m}`,
      ),
    );
    child.properties = {
      className: ["tab-panel"],
      role: "tabpanel",
      id: panelId,
      ariaLabelledBy: [tabId],
      tabIndex: 0,
      hidden: !selected,
    };
    if (titled) child.children = child.children.slice(1);
    return [child];
  });
  tabs.properties.className = ["content-tabs"];
  tabs.children.unshift(h("div", { role: "tablist" }, buttons));
}

/**
 * A checkbox of a task list (`- [x] Done`, which the sanitizer keeps disabled) named by its item's
 * text, its nested lists left out.
 */
function nameCheckbox(input: Element, parent: Element): void {
  const name = nameOf(
    parent.children.filter(
      (node) =>
        node !== input && !(node.type === "element" && (node.tagName === "ul" || node.tagName === "ol")),
    ),
  );
  if (name) input.properties.ariaLabel = name;
}

/** Makes the blocks of a sanitized page body interactive and accessible: GitBook's tabs, task lists. */
export function interactiveBlocks(tree: HtmlRoot): void {
  // The ids made here are new on the page, whatever the ids its headings and HTML have.
  const taken = new Set<string>();
  visit(tree, "element", ({ properties: { id } }) => {
    if (typeof id === "string") taken.add(id);
  });
  const unique = (id: string) => {
    let candidate = id;
    for (let i = 1; taken.has(candidate); i++) candidate = `${id}-${i}`;
    taken.add(candidate);
    return candidate;
  };
  let n = 0;
  // In document order, a tabs block before the tabs in its panels: their ids number from the outside in.
  visit(tree, "element", (element, _index, parent) => {
    if (hasClass(element, "tabs") && element.children.some((child) => hasClass(child, "tab")))
      toTabs(element, ++n, unique);
    else if (
      element.tagName === "input" &&
      element.properties.type === "checkbox" &&
      parent?.type === "element"
    )
      nameCheckbox(element, parent);
  });
}
