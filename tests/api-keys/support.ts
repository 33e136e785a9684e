export { principalFor } from "../support/route-harness";

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

export interface CallOptions<P> {
  method?: string;
  path?: string;
  body?: unknown;
  params?: P;
  headers?: Record<string, string>;
}

export async function call<P = Record<string, never>>(handler: Handler<P>, options: CallOptions<P> = {}) {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const request = new Request(`http://localhost${options.path ?? "/api/v1/memories"}`, {
    method: options.method ?? "GET",
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
    body,
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? ({} as P)) });
  // biome-ignore lint/suspicious/noExplicitAny: each endpoint answers its own shape; tests read the fields they check
  const json = (await response.json()) as any;
  return { status: response.status, headers: response.headers, json };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
