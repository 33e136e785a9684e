import { currentPrincipal } from "@/app/(auth)/session";
import type { Principal } from "@/lib/auth/principal";
import type { MemoryContext } from "@/lib/memory";
import { MemoryError } from "@/lib/memory";
import { ApiError, type ErrorCode, errorResponse } from "./errors";
import { memoryContextFor } from "./memory-context";

/** What a memory route receives once the caller is known. */
export interface MemoryRequest<Params> {
  request: Request;
  params: Params;
  principal: Principal;
  memory: MemoryContext;
}

/**
 * Wraps a route: resolves the principal (currentPrincipal is the one place that does), builds the memory context,
 * and maps ApiError and memory errors to the `{ error: { code, message } }` shape.
 */
export function memoryRoute<Params = Record<string, never>>(
  handle: (request: MemoryRequest<Params>) => Promise<Response>,
) {
  return async (request: Request, context: { params: Promise<Params> }): Promise<Response> => {
    try {
      const principal = await currentPrincipal();
      if (!principal) return errorResponse("unauthorized", "Sign in or send an API key.");
      const memory = await memoryContextFor(principal);
      return await handle({ request, params: await context.params, principal, memory });
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}

const MEMORY_ERROR_CODES: Record<MemoryError["code"], ErrorCode> = {
  not_found: "not_found",
  conflict: "conflict",
  validation: "unprocessable",
  payload_too_large: "payload_too_large",
  namespace_template: "internal",
};

export function toErrorResponse(error: unknown): Response {
  if (error instanceof ApiError) return errorResponse(error.code, error.message, { details: error.details });
  if (error instanceof MemoryError) {
    const code = MEMORY_ERROR_CODES[error.code];
    if (code === "internal") return internalError(error);
    const details = "issues" in error && Array.isArray(error.issues) && error.issues.length ? error.issues : undefined;
    return errorResponse(code, error.message, { details });
  }
  return internalError(error);
}

function internalError(error: unknown): Response {
  console.error("memory API request failed:", error);
  return errorResponse("internal", "Something went wrong on our side.");
}
