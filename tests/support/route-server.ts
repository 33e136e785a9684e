import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
/** A route module as Next.js sees it: its exported method handlers (other exports are ignored). */
type RouteModule = Partial<Record<string, unknown>>;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

export interface RouteServer {
  origin: string;
  requests: number;
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback over route handlers run in this process, routed by their app/ paths (`[id]`
 * segments become params), for clients in other processes. The route mocks (./route-mocks.ts) still apply, so
 * the handlers use the harness database. Unknown paths and methods answer as Next.js would: 404 and 405.
 */
export async function startRouteServer(routes: Record<string, RouteModule>): Promise<RouteServer> {
  const table = Object.entries(routes).map(([pattern, module]) => {
    const names: string[] = [];
    const source = pattern.replace(/\[(\w+)\]/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    return { regex: new RegExp(`^${source}$`), names, module };
  });

  const state = { requests: 0 };
  const server = createServer((incoming, outgoing) => {
    state.requests++;
    serve(incoming, outgoing).catch((error: unknown) => {
      outgoing.writeHead(500, { "content-type": "text/plain" }).end(String(error));
    });
  });

  async function serve(incoming: IncomingMessage, outgoing: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host}`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    }
    const method = incoming.method ?? "GET";
    const request = new Request(url, {
      method,
      headers,
      body: method === "GET" || method === "HEAD" || chunks.length === 0 ? undefined : Buffer.concat(chunks),
    });
    const response = await dispatch(request, url.pathname);
    const outHeaders: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      outHeaders[name] = value;
    });
    outgoing.writeHead(response.status, outHeaders);
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  }

  function dispatch(request: Request, pathname: string): Promise<Response> | Response {
    for (const { regex, names, module } of table) {
      const match = regex.exec(pathname);
      if (!match) continue;
      const handler = METHODS.includes(request.method) ? (module[request.method] as Handler | undefined) : undefined;
      if (!handler) return new Response(null, { status: 405 });
      const params = Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
      return handler(request, { params: Promise.resolve(params) });
    }
    return new Response("not found", { status: 404 });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
