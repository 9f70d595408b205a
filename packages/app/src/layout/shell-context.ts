import type { Schema } from "@quire/client";
import { useEffect } from "react";
import { useOutletContext } from "react-router";

export interface ShellContext {
  /** The organization the shell shows (its navigation, search, people…). */
  organization: Schema<"Organization">;
  /** Shows another of the person's organizations: a screen of a space or collection names its own. */
  showOrganization(organizationId: string): void;
}

/** What the shell hands the screen inside it. */
export const useShell = () => useOutletContext<ShellContext>();

/** Makes the shell show `organizationId` (once known), for a screen whose path does not name it. */
export function useShownOrganization(organizationId: string | undefined): void {
  const { showOrganization } = useShell();
  useEffect(() => {
    if (organizationId) showOrganization(organizationId);
  }, [organizationId, showOrganization]);
}
