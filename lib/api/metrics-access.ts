import { createHash, timingSafeEqual } from "node:crypto";
import { currentPrincipal } from "@/lib/auth/session";
import { config } from "@/lib/config";

/**
 * Who may read GET /api/metrics: a scraper sending `Authorization: Bearer $METRICS_TOKEN`, or an admin's session. A
 * request that sends a bearer token is judged by the token alone, as API keys are (lib/api/caller.ts).
 */
export async function mayReadMetrics(request: Request): Promise<boolean> {
  const presented = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (presented !== undefined) {
    const token = config().METRICS_TOKEN;
    return token !== undefined && sameText(presented, token);
  }
  return (await currentPrincipal())?.role === "admin";
}

/** Compares digests, so the time taken says nothing about how much of the token matched. */
function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}
