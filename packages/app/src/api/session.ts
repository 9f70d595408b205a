import { paths } from "../routes/paths.js";

let leaving = false;

/** A full page load to the sign-in page, which brings the person back to where they were. */
export function signInAgain(): void {
  if (leaving) return;
  leaving = true;
  const { pathname, search, hash } = window.location;
  window.location.assign(paths.signIn(`${pathname}${search}${hash}`));
}
