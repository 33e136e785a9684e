import { NextRequest } from "next/server";
import { rateLimitedResponse, takeAuthAttempt } from "@/lib/api/auth-rate-limit";
import { parseJsonText, readBodyText } from "@/lib/api/body";
import { clientAddress } from "@/lib/api/client-address";
import { errorResponse, toErrorResponse } from "@/lib/api/errors";
import { handlers } from "@/lib/auth/authjs";

const AUTH_ACTIONS = new Set([
  "callback",
  "csrf",
  "error",
  "providers",
  "session",
  "signin",
  "signout",
  "verify-request",
  "webauthn-options",
]);

export async function GET(request: NextRequest): Promise<Response> {
  if (!isAuthAction(request)) return unknownAction();
  return withErrorShape(await handlers.GET(request));
}

/**
 * Auth.js POSTs after our own checks: the body within the API's size limit and valid UTF-8 (and JSON when it says
 * so), and credential and guest sign-ins within their rate limits. Auth.js then gets an intact copy of the body.
 */
export async function POST(request: NextRequest): Promise<Response> {
  if (!isAuthAction(request)) return unknownAction();
  try {
    const text = await readBodyText(request);
    const fields = bodyFields(request.headers.get("content-type"), text);
    const callback = /\/callback\/(credentials|guest)$/.exec(request.nextUrl.pathname)?.[1];
    if (callback) {
      const address = clientAddress(request.headers);
      const email = typeof fields.email === "string" ? fields.email : "";
      const attempt =
        callback === "credentials"
          ? ({ kind: "sign-in", address, email } as const)
          : ({ kind: "guest", address } as const);
      const decision = await takeAuthAttempt(attempt);
      if (!decision.allowed) return rateLimitedResponse(attempt.kind, decision.retryAfterSeconds);
    }
    // The decoded text may be shorter than the bytes sent (a UTF-8 BOM is dropped), so the old length must go.
    const headers = new Headers(request.headers);
    headers.delete("content-length");
    const forwarded = new NextRequest(request.url, { method: "POST", headers, body: text });
    return withErrorShape(await handlers.POST(forwarded));
  } catch (error) {
    return toErrorResponse(error);
  }
}

const isAuthAction = (request: NextRequest) =>
  AUTH_ACTIONS.has(request.nextUrl.pathname.replace(/^\/api\/auth\//, "").split("/")[0] ?? "");

const unknownAction = () => errorResponse("not_found", "No such sign-in endpoint.");

/** The fields Auth.js will read, parsed the way it parses them (JSON or a form; anything else it ignores). */
function bodyFields(contentType: string | null, text: string): Record<string, unknown> {
  if (contentType?.includes("application/json")) {
    const value = parseJsonText(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  }
  if (contentType?.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text));
  return {};
}

/** Auth.js refuses a malformed request or a missing CSRF token with a bare 400 (`"Bad request."`, `null`). */
function withErrorShape(response: Response): Response {
  if (response.status !== 400) return response;
  return errorResponse(
    "bad_request",
    "The sign-in request was refused: a missing or invalid CSRF token, or a malformed body.",
  );
}
