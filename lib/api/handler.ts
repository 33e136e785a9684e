import type { ApiKeyScope } from "@/lib/auth/api-keys";
import type { Principal } from "@/lib/auth/principal";
import type { MemoryContext } from "@/lib/memory/core";
import { memoryContextFor } from "@/lib/server/memory-context";
import { actorFor, type Caller, type KeyHeader, requireScope, resolveCaller } from "./caller";
import { toErrorResponse } from "./errors";

/** What a route receives once the caller is known. */
export interface CallerRequest<Params> {
  request: Request;
  params: Params;
  caller: Caller;
}

/** Wraps a route: resolves the caller, then answers any failure with toErrorResponse (the one error table). */
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
    const memory = await memoryContextFor(caller.principal, "api", { actor: actorFor(caller) });
    return handle({ request, params, principal: caller.principal, caller, memory });
  }, options);
}
