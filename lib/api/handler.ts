import type { ApiKeyScope } from "@/lib/auth/api-keys";
import type { Principal } from "@/lib/auth/principal";
import { postgresErrorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";
import { describeErrorWithStack } from "@/lib/log";
import type { MemoryContext } from "@/lib/memory";
import { MemoryError } from "@/lib/memory";
import { actorFor, type Caller, type KeyHeader, requireScope, resolveCaller } from "./caller";
import { ApiError, type ErrorCode, errorResponse } from "./errors";
import { memoryContextFor } from "./memory-context";

/** What a route receives once the caller is known. */
export interface CallerRequest<Params> {
  request: Request;
  params: Params;
  caller: Caller;
}

/** Wraps a route: resolves the caller, then maps ApiError and memory errors to `{ error: { code, message } }`. */
export function callerRoute<Params = Record<string, never>>(
  handle: (request: CallerRequest<Params>) => Promise<Response>,
  options: { keyHeader?: KeyHeader } = {},
) {
  return async (request: Request, context: { params: Promise<Params> }): Promise<Response> => {
    try {
      const caller = await resolveCaller(request, options.keyHeader);
      return await handle({ request, params: await context.params, caller });
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}

/** What a memory route receives once the caller is known. */
export interface MemoryRequest<Params> extends CallerRequest<Params> {
  principal: Principal;
  memory: MemoryContext;
}

export interface MemoryRouteOptions {
  /** What an API key needs for this route; by default reads for GET and writes for everything else. */
  scope?: ApiKeyScope;
  /** Where the key is read from; `authorization` (Bearer) unless the surface's own clients send another header. */
  keyHeader?: KeyHeader;
}

/**
 * Wraps a memory route: resolves the caller (session cookie or `Authorization: Bearer` key, see resolveCaller),
 * checks the key's scope and builds the memory context, with errors mapped as in callerRoute.
 */
export function memoryRoute<Params = Record<string, never>>(
  handle: (request: MemoryRequest<Params>) => Promise<Response>,
  options: MemoryRouteOptions = {},
) {
  return callerRoute<Params>(async ({ request, params, caller }) => {
    requireScope(caller, options.scope ?? (request.method === "GET" || request.method === "HEAD" ? "read" : "write"));
    const memory = await memoryContextFor(caller.principal, actorFor(caller));
    return handle({ request, params, principal: caller.principal, caller, memory });
  }, options);
}

const MEMORY_ERROR_CODES: Record<MemoryError["code"], ErrorCode> = {
  not_found: "not_found",
  conflict: "conflict",
  validation: "unprocessable",
  payload_too_large: "payload_too_large",
  namespace_template: "internal",
};

export function toErrorResponse(error: unknown): Response {
  if (error instanceof ApiError) {
    return errorResponse(error.code, error.message, { details: error.details, headers: error.headers });
  }
  if (error instanceof MemoryError) {
    const code = MEMORY_ERROR_CODES[error.code];
    if (code === "internal") return internalError(error);
    const details = "issues" in error && Array.isArray(error.issues) && error.issues.length ? error.issues : undefined;
    return errorResponse(code, error.message, { details });
  }
  const rejected = rejectedByDatabase(error);
  if (rejected) return errorResponse(rejected.code, rejected.message);
  return internalError(error);
}

/**
 * Input that passed validation but that Postgres still refuses (a NUL character, an out-of-range date) or that
 * collides with an existing row is the caller's problem, not a server fault.
 */
const DATABASE_REJECTIONS: Record<string, { code: ErrorCode; message: string }> = {
  "22021": { code: "unprocessable", message: "The request contains characters that cannot be stored (e.g. NUL)." },
  "22P05": { code: "unprocessable", message: "The request contains characters that cannot be stored (e.g. NUL)." },
  "22008": { code: "unprocessable", message: "A date in the request is out of range." },
  [UNIQUE_VIOLATION]: { code: "conflict", message: "That id or key is already in use." },
};

function rejectedByDatabase(error: unknown) {
  const code = postgresErrorCode(error);
  return code === undefined ? undefined : DATABASE_REJECTIONS[code];
}

function internalError(error: unknown): Response {
  console.error(`memory API request failed: ${describeErrorWithStack(error)}`);
  return errorResponse("internal", "Something went wrong on our side.");
}
