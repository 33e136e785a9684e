type Handler = (request: Request, context: { params: Promise<Record<string, never>> }) => Promise<Response>;
export type RouteTable = Record<string, Partial<Record<string, Handler>>>;

/**
 * A `fetch` that hands requests to route handlers in this process (path → method → handler), so real HTTP clients
 * can be tested without a server. Unknown paths are a 404 like Next's.
 */
export function routeFetch(routes: RouteTable): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const handler = routes[new URL(request.url).pathname]?.[request.method];
    if (!handler) return new Response("not found", { status: 404 });
    return handler(request, { params: Promise.resolve({}) });
  };
}
