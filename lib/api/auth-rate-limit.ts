import { config } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { errorResponse } from "./errors";
import { type RateDecision, SharedWindowLimiter } from "./rate-limit";

/** AUTH_RATE_LIMIT_PER_MINUTE: sign-ins, registrations and new guest sessions, each, per client address. */
const perAddress = () => config().AUTH_RATE_LIMIT_PER_MINUTE;
/** AUTH_EMAIL_RATE_LIMIT_PER_MINUTE: sign-in attempts per email address from one client address. */
const perEmail = () => config().AUTH_EMAIL_RATE_LIMIT_PER_MINUTE;

const signInsByAddress = new SharedWindowLimiter("sign-in-address", perAddress);
const signInsByEmail = new SharedWindowLimiter("sign-in-email", perEmail);
const registrationsByAddress = new SharedWindowLimiter("register-address", perAddress);
const guestsByAddress = new SharedWindowLimiter("guest-address", perAddress);

export type AuthAttempt =
  | { kind: "sign-in"; address: string; email: string }
  | { kind: "register"; address: string }
  | { kind: "guest"; address: string };

/**
 * Counts one attempt against its limits (shared by every web process, like the API key limit). A sign-in is limited
 * by address, and by email from that address: one address guessing at one account is stopped sooner than its
 * address limit, yet cannot lock the account's owner out, who signs in from another address with a budget of its own.
 */
export async function takeAuthAttempt(attempt: AuthAttempt, now = Date.now()): Promise<RateDecision> {
  const database = await getDatabase();
  switch (attempt.kind) {
    case "sign-in": {
      const byAddress = await signInsByAddress.take(database, attempt.address, now);
      if (!byAddress.allowed) return byAddress;
      const email = attempt.email.trim().toLowerCase().slice(0, 320);
      return signInsByEmail.take(database, `${attempt.address} ${email}`, now);
    }
    case "register":
      return registrationsByAddress.take(database, attempt.address, now);
    case "guest":
      return guestsByAddress.take(database, attempt.address, now);
  }
}

const MESSAGES: Record<AuthAttempt["kind"], string> = {
  "sign-in": "Too many sign-in attempts. Try again in",
  register: "Too many accounts created from this address. Try again in",
  guest: "Too many new sessions from this address. Try again in",
};

/** What a person reads when an attempt is refused. */
export function rateLimitMessage(kind: AuthAttempt["kind"], retryAfterSeconds: number): string {
  return `${MESSAGES[kind]} ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}.`;
}

/** The 429 JSON answer with Retry-After. */
export function rateLimitedResponse(kind: AuthAttempt["kind"], retryAfterSeconds: number): Response {
  return errorResponse("rate_limited", rateLimitMessage(kind, retryAfterSeconds), {
    headers: { "retry-after": String(retryAfterSeconds) },
  });
}
