/**
 * The look of the sign-in, join and security pages: one card on a plain page, light or dark as the
 * system is, readable at 390 px. Served as a file (`scripts.ts`), since their policy allows no inline style.
 */
export const PAGES_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f6f8fa;
  --card: #ffffff;
  --fg: #1b1f24;
  --muted: #57606a;
  --line: #d0d7de;
  --accent: #0a58ca;
  --accent-fg: #ffffff;
  --danger-bg: #fff1f0;
  --danger-fg: #a40e26;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  line-height: 1.5;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117;
    --card: #161b22;
    --fg: #e6edf3;
    --muted: #9da7b3;
    --line: #30363d;
    --accent: #79b8ff;
    --accent-fg: #0d1117;
    --danger-bg: #3c1618;
    --danger-fg: #ffb1ad;
  }
}
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
a { color: var(--accent); }
.brand { display: block; text-align: center; font-weight: 700; font-size: 1.25rem; margin: 2.5rem 0 1rem; color: var(--fg); text-decoration: none; }
main { max-width: 26rem; margin: 0 auto 3rem; padding: 1.5rem 1.75rem; background: var(--card); border: 1px solid var(--line); border-radius: 10px; overflow-wrap: anywhere; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; }
label { display: block; font-weight: 600; margin-top: 0.75rem; }
label + p { margin: 0.25rem 0 0; }
input:not([type="hidden"]):not([type="checkbox"]) { width: 100%; font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.6rem; }
button { font: inherit; margin-top: 1rem; padding: 0.5rem 1rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); font-weight: 600; cursor: pointer; }
form button[type="submit"] { width: 100%; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
[role="alert"] { border: 1px solid var(--danger-fg); background: var(--danger-bg); color: var(--danger-fg); border-radius: 6px; padding: 0.5rem 0.75rem; }
ul, ol { padding-left: 1.25rem; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; white-space: pre-wrap; }
img { max-width: 100%; height: auto; }
@media (max-width: 480px) {
  .brand { margin: 1.25rem 0 0.75rem; }
  main { margin: 0 0.75rem 2rem; padding: 1.25rem 1rem; }
}
`;
