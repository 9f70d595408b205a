import type { OperationId } from "@quire/api-types";

/**
 * Operations of the contract whose behaviour a later issue implements. Until then they answer
 * 501 with the standard error body; this list is the only place that decides it.
 */
export const pendingOperations = [] as const satisfies readonly OperationId[];

export type PendingOperation = (typeof pendingOperations)[number];
