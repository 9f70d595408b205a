import { entityTag } from "./preconditions.js";

/** The answers handlers give, so that 125 handlers do not spell them out. */
export const ok = <Body>(body: Body) => ({ status: 200 as const, body });

/** 201 with the `Location` of what was made. */
export const created = <Body extends { urls: { location: string } }>(body: Body) => ({
  status: 201 as const,
  headers: { location: body.urls.location },
  body,
});

export const noContent = () => ({ status: 204 as const, body: undefined });

/**
 * `answer` with the strong `ETag` a read of its body carries: for a write that answers its resource
 * exactly as a read without parameters shows it, so the writer's next `If-Match` needs no read first.
 */
export const withEntityTag = <A extends { status: number; headers?: Record<string, string>; body: unknown }>(
  answer: A,
): A => ({ ...answer, headers: { ...answer.headers, etag: entityTag(JSON.stringify(answer.body)) } });
