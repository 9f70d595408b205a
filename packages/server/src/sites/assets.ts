import { createHash } from "node:crypto";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { Request, Response } from "express";
import { HIGHLIGHT_STYLE } from "../content/engine/highlight-style.js";
import { CUSTOMIZATION_STYLE } from "./customization/render.js";

// Colours are `light-dark()` pairs: the `color-scheme` of the root picks one, following the reader's
// system unless the theme checkbox (`#quire-theme`) turns it around, which needs no script.
// Tables and code scroll inside themselves (never the page); the grid's `minmax(0, 1fr)` lets the
// text column shrink below its widest table rather than push the sidebar off-screen.
const STYLE = `:root{color-scheme:light dark;--fg:light-dark(#1f2328,#e6edf3);--bg:light-dark(#fff,#0d1117);--muted:light-dark(#59636e,#9198a1);--line:light-dark(#d0d7de,#3d444d);--soft:light-dark(#f6f8fa,#161b22);--accent:light-dark(#1f5fc8,#79b0ff)}
:root:has(#quire-theme:checked){color-scheme:dark}
@media (prefers-color-scheme:dark){:root:has(#quire-theme:checked){color-scheme:light}}
body{margin:0;font:16px/1.6 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}h1,h2,h3,h4,h5,h6{line-height:1.25;margin:1.5em 0 .5em}
h1{font-size:2em;margin-top:.5em}h2{font-size:1.5em}h3{font-size:1.25em}h4{font-size:1.125em}h5{font-size:1.0625em}h6{font-size:1em}
:target{scroll-margin-top:16px}main :is(h2,h3,h4,h5,h6):target{background:var(--soft)}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;z-index:2;background:var(--bg);padding:4px 8px}
header{padding:8px 24px;border-bottom:1px solid var(--line);display:flex;flex-wrap:wrap;gap:8px 24px;align-items:center}
header .home{font-weight:700;color:inherit;text-decoration:none}
.toggle{position:absolute;opacity:0;width:1px;height:1px;margin:0}
.button{border:1px solid var(--line);border-radius:6px;padding:2px 10px;cursor:pointer;font-size:.875em}
.toggle:focus-visible+.button{outline:2px solid var(--accent);outline-offset:2px}
#quire-menu,#quire-menu+.button{display:none}.theme{margin-left:auto}
header nav a,aside a,.toc a{color:inherit;text-decoration:none}
[aria-current=page]{font-weight:600;color:var(--accent)}
.tabs{min-width:0;max-width:100%}.tabs ul{display:flex;gap:4px;margin:0;padding:0;list-style:none;overflow-x:auto}
.tabs a{display:block;padding:6px 12px;border-bottom:2px solid transparent}.tabs a[aria-current=page]{border-color:var(--accent)}
.layout{display:grid;grid-template-columns:260px minmax(0,1fr) 220px;align-items:start}
aside,.toc{position:sticky;top:0;max-height:100vh;overflow-y:auto;box-sizing:border-box;padding:16px 20px}
aside,.column,.toc{grid-row:1}aside{border-right:1px solid var(--line)}.toc{grid-column:3;font-size:.875em}
aside ul,.toc ul{list-style:none;margin:0;padding-left:12px}aside li,.toc li{margin:4px 0}
aside .nav-group-title{display:block;margin:16px 0 4px;font-size:.75em;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}aside .nav-group>ul{padding-left:0}
.group{position:relative;padding-right:24px}.group>details>summary{position:absolute;top:0;right:0;cursor:pointer}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.toc h2{font-size:.875em;margin:0 0 8px;color:var(--muted)}.toc .depth-3{padding-left:12px}
.column{grid-column:2;padding:16px 32px 48px;max-width:760px;min-width:0;overflow-wrap:break-word}
.column.wide{max-width:1100px}.no-pages{grid-template-columns:minmax(0,1fr) 220px}.no-pages .column{grid-column:1;justify-self:center;width:100%}.no-pages .toc{grid-column:2}
main .description{font-size:1.125em;color:var(--muted);margin-top:-8px}
.breadcrumbs ol{display:flex;flex-wrap:wrap;list-style:none;margin:0;padding:0;font-size:.875em;color:var(--muted)}
.breadcrumbs li+li::before{content:"/";padding:0 6px}.breadcrumbs a{color:inherit}
.pager{display:flex;justify-content:space-between;gap:16px;margin-top:48px;border-top:1px solid var(--line);padding-top:16px}
.pager a{display:block;border:1px solid var(--line);border-radius:6px;padding:8px 16px;text-decoration:none}
.pager .next{margin-left:auto;text-align:right}.pager span{display:block;font-size:.75em;color:var(--muted)}
img{max-width:100%;height:auto}
pre{background:var(--soft);padding:12px;overflow-x:auto}main table{display:block;max-width:100%;overflow-x:auto;border-collapse:collapse}
td,th{border:1px solid var(--line);padding:4px 8px}
.hint{border-left:4px solid var(--accent);background:light-dark(#f0f5ff,#121d33);padding:4px 16px;margin:16px 0}
.hint-success{border-color:#1a7f37;background:light-dark(#effaf2,#10261a)}.hint-warning{border-color:#bf8700;background:light-dark(#fff8e5,#2b2111)}
.hint-danger{border-color:#cf222e;background:light-dark(#fff0f0,#2d1215)}
.tab{border:1px solid var(--line);padding:0 16px;margin:8px 0}.tab-title,.code-title{font-weight:600}
.content-tabs{margin:16px 0}.content-tabs [role=tablist]{display:flex;gap:4px;overflow-x:auto;border-bottom:1px solid var(--line)}
.content-tabs [role=tab]{font:inherit;padding:6px 12px;border:0;border-bottom:2px solid transparent;margin-bottom:-1px;background:none;color:var(--muted);cursor:pointer}
.content-tabs [aria-selected=true]{color:var(--fg);font-weight:600;border-color:var(--accent)}.tab-panel{padding:0 16px;border:1px solid var(--line);border-top:0}
.content-ref{display:block;border:1px solid var(--line);border-radius:6px;padding:12px 16px;text-decoration:none}
@media (max-width:1100px){.layout{grid-template-columns:260px minmax(0,1fr)}.toc{position:static;grid-column:2;max-height:none;padding:16px 32px 0}aside{grid-row:1/span 2}.column{grid-row:2}.no-pages{grid-template-columns:minmax(0,1fr)}.no-pages .toc{grid-column:1}}
@media (max-width:768px){.layout{display:flex;flex-direction:column;align-items:stretch}aside{order:-2}.toc{order:-1}#quire-menu,#quire-menu+.button{display:inline-block}
aside{display:none;position:static;max-height:none;border-right:0;border-bottom:1px solid var(--line)}
:root:has(#quire-menu:checked) aside{display:block}header{padding:8px 16px}.column,.toc{padding:16px}}
.search{display:flex;gap:4px}.search input{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg);min-width:0}
.search button{font:inherit;padding:4px 10px;border:1px solid var(--line);border-radius:6px;background:var(--soft);color:var(--fg);cursor:pointer}
.search-results{padding-left:20px}.search-results li{margin:12px 0}.search-results p{margin:4px 0;color:var(--muted)}mark{background:light-dark(#fff8c5,#5a4a00);color:inherit}
.permalink{margin-left:.4em;color:var(--muted);text-decoration:none;opacity:0}:is(h2,h3,h4,h5,h6):hover .permalink,.permalink:focus{opacity:1}
.code-block{position:relative}.copy{position:absolute;top:6px;right:6px;font:inherit;font-size:.75em;padding:2px 8px;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg);cursor:pointer;opacity:.8}.copy:hover,.copy:focus{opacity:1}
.search{position:relative}.instant{position:absolute;top:100%;right:0;z-index:3;width:min(480px,90vw);max-height:70vh;overflow-y:auto;box-sizing:border-box;margin-top:4px;padding:4px 16px;background:var(--bg);border:1px solid var(--line);border-radius:6px;box-shadow:0 8px 24px light-dark(#8c959f33,#01040980)}
.toc [aria-current]{font-weight:600;color:var(--accent)}
${HIGHLIGHT_STYLE}
${CUSTOMIZATION_STYLE}`;

/**
 * What the site's pages do with a script, each an addition to a page that works without it: a copy
 * button on code blocks, the contents marking the heading being read, results under the search box
 * as the reader types (the search page's own, fetched and shown), the theme switch remembered
 * from page to page, and GitBook's tabs switched (the first shown without it).
 */
const SCRIPT = `(() => {
  const d = document;
  for (const pre of d.querySelectorAll("main pre")) {
    const code = pre.querySelector("code");
    if (!code || !navigator.clipboard) continue;
    const button = d.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy the code");
    button.addEventListener("click", () => {
      navigator.clipboard.writeText(code.textContent || "").then(
        () => { button.textContent = "Copied"; },
        () => { button.textContent = "Copy failed"; },
      );
      setTimeout(() => { button.textContent = "Copy"; }, 2000);
    });
    const block = d.createElement("div");
    block.className = "code-block";
    pre.before(block);
    block.append(pre, button);
  }

  const links = [...d.querySelectorAll(".toc a[href^='#']")];
  const headings = links.map((a) => d.getElementById(decodeURIComponent(a.hash.slice(1))));
  let marking = false;
  const mark = () => {
    marking = false;
    let current = 0;
    headings.forEach((heading, i) => {
      if (heading && heading.getBoundingClientRect().top < innerHeight / 3) current = i;
    });
    // At the end of the page, the last heading is the one being read, however near the end it is.
    if (innerHeight + scrollY >= d.documentElement.scrollHeight - 2) current = headings.length - 1;
    links.forEach((a, i) => {
      if (i === current) a.setAttribute("aria-current", "location");
      else a.removeAttribute("aria-current");
    });
  };
  if (links.length > 0) {
    addEventListener("scroll", () => {
      if (!marking) requestAnimationFrame(mark);
      marking = true;
    }, { passive: true });
    mark();
  }

  const form = d.querySelector("header form[role=search]");
  const input = form && form.querySelector("input[type=search]");
  if (input) {
    const box = d.createElement("div");
    box.className = "instant";
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", "Search results");
    box.setAttribute("aria-live", "polite");
    box.hidden = true;
    form.append(box);
    let timer;
    let asked = 0;
    const search = async () => {
      const q = input.value.trim();
      const n = ++asked;
      if (q.length < 2) { box.hidden = true; box.replaceChildren(); return; }
      const url = new URL(form.action, location.href);
      for (const [name, value] of new FormData(form)) url.searchParams.set(name, String(value));
      const res = await fetch(url, { credentials: "same-origin" });
      if (!res.ok || n !== asked) return;
      const main = new DOMParser().parseFromString(await res.text(), "text/html").querySelector("main");
      if (!main || n !== asked) return;
      main.querySelector("h1")?.remove();
      box.replaceChildren(...[...main.children].map((child) => d.importNode(child, true)));
      box.hidden = false;
    };
    input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(search, 150); });
    input.addEventListener("keydown", (event) => { if (event.key === "Escape") box.hidden = true; });
  }

  // The tabs of a page's content (made by interactiveBlocks), as WAI-ARIA's tabs pattern has them.
  const select = (tab) => {
    for (const other of tab.parentElement.children) {
      const chosen = other === tab;
      other.setAttribute("aria-selected", String(chosen));
      other.tabIndex = chosen ? 0 : -1;
      const panel = d.getElementById(other.getAttribute("aria-controls"));
      if (panel) panel.hidden = !chosen;
    }
  };
  const tabOf = (event) => event.target instanceof Element && event.target.closest(".content-tabs [role=tab]");
  d.addEventListener("click", (event) => {
    const tab = tabOf(event);
    if (tab) select(tab);
  });
  d.addEventListener("keydown", (event) => {
    const tab = tabOf(event);
    if (!tab) return;
    const tabs = [...tab.parentElement.children];
    const i = tabs.indexOf(tab);
    const to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: -1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = tabs.at(to % tabs.length);
    select(next);
    next.focus();
  });
  // A link into a hidden tab (the contents', a search result's) shows the tabs it is in.
  const reveal = () => {
    let target;
    try {
      target = d.getElementById(decodeURIComponent(location.hash.slice(1)));
    } catch {
      return;
    }
    let panel = target?.closest("[role=tabpanel][hidden]");
    if (!panel) return;
    for (; panel; panel = panel.parentElement.closest("[role=tabpanel][hidden]"))
      select(d.getElementById(panel.getAttribute("aria-labelledby")));
    target.scrollIntoView();
  };
  addEventListener("hashchange", reveal);
  reveal();

  const theme = d.getElementById("quire-theme");
  if (theme) {
    try {
      theme.checked = localStorage.getItem("quire-theme") === "switched";
      theme.addEventListener("change", () => localStorage.setItem("quire-theme", theme.checked ? "switched" : ""));
    } catch {}
  }
})();
`;

/** A file every page of every site uses, named after a digest of its content: cached for a year. */
export interface Asset {
  name: string;
  type: string;
  body: Buffer;
  encoded: { br: Buffer; gzip: Buffer };
}

function asset(base: string, extension: string, type: string, text: string): Asset {
  const body = Buffer.from(text);
  const digest = createHash("sha256").update(body).digest("base64url").slice(0, 12);
  // A dot in the name: no page slug has one, so an asset never hides a page.
  return {
    name: `quire-${base}.${digest}.${extension}`,
    type,
    body,
    encoded: { br: brotliCompressSync(body), gzip: gzipSync(body, { level: 9 }) },
  };
}

export const STYLESHEET = asset("site", "css", "text/css", STYLE);
export const SITE_SCRIPT = asset("site", "js", "text/javascript", SCRIPT);

/** The asset of that name, if any. */
export const assetNamed = (name: string): Asset | undefined =>
  [STYLESHEET, SITE_SCRIPT].find((candidate) => candidate.name === name);

/** Sends an asset, compressed when the request accepts it, to be kept a year: its name changes with it. */
export function sendAsset(req: Request, res: Response, asset: Asset): void {
  const encoding = req.acceptsEncodings("br", "gzip") as keyof Asset["encoded"] | false;
  res.set({ "Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff" });
  res.vary("Accept-Encoding");
  if (encoding) res.set("Content-Encoding", encoding);
  res.type(asset.type).send(encoding ? asset.encoded[encoding] : asset.body);
}
