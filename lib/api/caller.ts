import { type ApiKeyScope, type AuthenticatedKey, authenticateApiKey, recordKeyUse } from "@/lib/auth/api-keys";
import type { Principal } from "@/lib/auth/principal";
import { currentPrincipal } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Actor } from "@/lib/memory/core";
import { crossSiteRefusal } from "./origin";
import { apiKeyLimiter, type RateDecision, sessionLimiter } from "./rate-limit";

/** Who is calling: the principal, plus the key when the request carried one instead of a session cookie. */
export interface Caller {
  principal: Principal;
  apiKey: Pick<AuthenticatedKey, "id" | "scopes"> | null;
}

/** REST and MCP read `Authorization: Bearer`; the LangGraph API reads `x-api-key`, as its SDK sends it. */
export type KeyHeader = "authorization" | "x-api-key";

const REJECTED_KEY_MESSAGES = {
  malformed: "The API key is malformed.",
  unknown: "The API key is not recognised.",
  revoked: "The API key has been revoked.",
  expired: "The API key has expired.",
} as const;

/**
 * The one place a request becomes a principal. A request that presents a key is judged by the key alone (a bad key
 * is a 401 even alongside a valid cookie); otherwise the session cookie decides, and a cookie-authenticated mutation
 * from another site is refused (403) before anything runs.
 */
export async function resolveCaller(request: Request, keyHeader: KeyHeader = "authorization"): Promise<Caller> {
  const presented = presentedKey(request, keyHeader);
  if (presented === null) {
    const refusal = crossSiteRefusal(request);
    if (refusal) throw new AppError("forbidden", refusal);
    const principal = await currentPrincipal();
    if (!principal) throw new AppError("unauthorized", "Sign in or send an API key.");
    await takeSessionRequest(principal);
    return { principal, apiKey: null };
  }
  const database = await getDatabase();
  const result = await authenticateApiKey(database, presented);
  if (!result.ok) throw new AppError("unauthorized", REJECTED_KEY_MESSAGES[result.reason]);
  requireWithinLimit(
    await apiKeyLimiter.take(database, result.key.id),
    "Too many requests for this API key; retry later.",
  );
  await recordKeyUse(database, result.key, `${request.method} ${new URL(request.url).pathname}`);
  return { principal: result.key.principal, apiKey: { id: result.key.id, scopes: result.key.scopes } };
}

/**
 * The signed-in person a server action acts for: every server action of the console and the chat starts here (through
 * sessionAction, ./session-action.ts), so each one counts against the same per-user budget as the person's
 * cookie-authenticated API requests. Throws `unauthorized` when signed out and `rate_limited` past the budget.
 */
export async function actionPrincipal(): Promise<Principal> {
  const principal = await currentPrincipal();
  if (!principal) throw new AppError("unauthorized", "Your session has ended; sign in again.");
  await takeSessionRequest(principal);
  return principal;
}

/** One request of a signed-in person against their per-user budget (API_RATE_LIMIT_PER_MINUTE, like a key's). */
async function takeSessionRequest(principal: Principal): Promise<void> {
  requireWithinLimit(
    await sessionLimiter.take(await getDatabase(), principal.userId),
    "Too many requests for this account; retry later.",
  );
}

export function requireWithinLimit(decision: RateDecision, message: string): void {
  if (!decision.allowed) {
    throw new AppError("rate_limited", message, [], { headers: { "retry-after": String(decision.retryAfterSeconds) } });
  }
}

function presentedKey(request: Request, keyHeader: KeyHeader): string | null {
  const value = request.headers.get(keyHeader);
  if (value === null) return null;
  if (keyHeader === "x-api-key") return value.trim();
  const match = /^Bearer\s+(\S.*)$/i.exec(value.trim());
  return match?.[1]?.trim() ?? "";
}

/** Session callers may do anything to their own data; a key only what its scopes allow. */
export function requireScope(caller: Caller, scope: ApiKeyScope): void {
  if (caller.apiKey && !caller.apiKey.scopes.includes(scope)) {
    throw new AppError("forbidden", `This API key lacks the "${scope}" scope.`);
  }
}

/** Refuses API keys where only a signed-in person may act (issuing and revoking keys). */
export function requireSession(caller: Caller, action: string): void {
  if (caller.apiKey) throw new AppError("forbidden", `An API key cannot ${action}; sign in to the console.`);
}

/** Writes made with a key are attributed to the key; session writes to the user. */
export function actorFor(caller: Caller): Actor {
  return caller.apiKey ? { type: "api", id: caller.apiKey.id } : { type: "user", id: caller.principal.userId };
}
