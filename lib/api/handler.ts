import type { ApiKeyScope } from "@/lib/auth/api-keys";
import type { Principal } from "@/lib/auth/principal";
import { asRequest } from "@/lib/log";
import type { MemoryContext } from "@/lib/memory/core";
import { memoryContextFor } from "@/lib/server/memory-context";
import { instruments, secondsSince } from "@/lib/telemetry/metrics";
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
  return async (request: Request, context: { params: Promise<Params> }): Promise<Response> =>
    asRequest(() => answer(request, context));

  async function answer(request: Request, context: { params: Promise<Params> }): Promise<Response> {
    const startedAt = performance.now();
    const params = await context.params;
    let response: Response;
    try {
      const caller = await resolveCaller(request, options.keyHeader);
      response = await handle({ request, params, caller });
    } catch (error) {
      response = toErrorResponse(error);
    }
    // Until the response starts: a streamed answer (the chat) is timed to its first byte.
    instruments().requestDuration.record(secondsSince(startedAt), {
      "http.route": routeOf(request, params),
      "http.request.method": request.method,
      "http.response.status_code": response.status,
    });
    return response;
  }
}

/**
 * The route's pattern, as its folder names it (`/api/v1/memories/[id]`): each segment that is a route parameter's
 * value is written as the parameter, so ids never become metric labels.
 */
function routeOf(request: Request, params: unknown): string {
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries((params ?? {}) as Record<string, string | string[]>)) {
    for (const part of Array.isArray(value) ? value : [value]) names.set(part, `[${name}]`);
  }
  return new URL(request.url).pathname
    .split("/")
    .map((segment) => names.get(decodeURIComponent(segment)) ?? segment)
    .join("/");
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
