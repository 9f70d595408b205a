import type { Schema } from "@quire/client";
import { useOutletContext } from "react-router";

export interface ShellContext {
  organization: Schema<"Organization">;
}

/** What the shell hands the screen inside it: the organization shown. */
export const useShell = () => useOutletContext<ShellContext>();
