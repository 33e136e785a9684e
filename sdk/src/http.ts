import { MemoryLedgerError, retryAfterMs } from "./errors";

export interface MemoryClientOptions {
  /** The server's origin, e.g. `https://memory.example.com`. */
  baseUrl: string;
  /** An API key (`ml_…`) from the console. */
  apiKey: string;
  /** A fetch of your own (tests, proxies, instrumentation); the global fetch otherwise. */
  fetch?: typeof fetch;
  /** Retries of a request the server rate-limited (429), each after its Retry-After. Default 2. */
  maxRetries?: number;
  /** The longest Retry-After worth waiting for; a longer one fails at once. Default 10 000 ms. */
  maxRetryDelayMs?: number;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** The REST API reads `Authorization: Bearer`; the LangGraph store API reads `x-api-key`. */
  keyHeader?: "authorization" | "x-api-key";
  signal?: AbortSignal;
}

/** Sends one API request: the key, JSON both ways, 429s retried (bounded), anything else not 2xx thrown typed. */
export function createTransport(options: MemoryClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, "");
  const send = options.fetch ?? globalThis.fetch;
  const maxRetries = options.maxRetries ?? 2;
  const maxDelay = options.maxRetryDelayMs ?? 10_000;

  return async function request<T>(method: string, path: string, init: RequestOptions = {}): Promise<T> {
    const url = new URL(`${base}${path}`);
    for (const [name, value] of Object.entries(init.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    if (init.keyHeader === "x-api-key") headers["x-api-key"] = options.apiKey;
    else headers.authorization = `Bearer ${options.apiKey}`;
    if (init.body !== undefined) headers["content-type"] = "application/json";
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);

    for (let attempt = 0; ; attempt++) {
      const response = await send(url, { method, headers, body, signal: init.signal });
      if (response.ok) {
        const text = await response.text();
        return (text === "" ? undefined : JSON.parse(text)) as T;
      }
      const wait = response.status === 429 ? retryAfterMs(response.headers.get("retry-after")) : undefined;
      if (wait === undefined || attempt >= maxRetries || wait > maxDelay) {
        throw await MemoryLedgerError.fromResponse(response);
      }
      // A refused request did nothing on the server, so sending it again is safe for every method.
      await response.body?.cancel().catch(() => {});
      await sleep(wait, init.signal);
    }
  };
}

export type Transport = ReturnType<typeof createTransport>;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
