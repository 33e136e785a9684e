import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { type Lookup, resolveTarget, type TargetPolicy, TargetRefusedError } from "./targets";

export interface SendOptions {
  policy: TargetPolicy;
  /** The whole attempt, from resolving the name to the response's status line. */
  timeoutMs: number;
  lookup?: Lookup;
}

/** What one attempt got: a status code when the receiver answered, and why it counts as failed, if it does. */
export interface SendResult {
  ok: boolean;
  statusCode?: number;
  error?: string;
  /** No answer within the timeout: the attempt held its delivery slot for the whole of it. */
  timedOut?: boolean;
}

/**
 * POSTs one signed body. Redirects are never followed (a 3xx is a failure: following one would let a public
 * target bounce the request inside), and the connection goes to the address checked just before, never to a
 * second resolution of the name. Only the status is read; the receiver's body is discarded unread.
 */
export async function sendWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  let target: { address: string; family: 4 | 6 };
  try {
    target = await resolveTarget(url.hostname, options.policy, options.lookup);
  } catch (error) {
    if (error instanceof TargetRefusedError) return { ok: false, error: error.message };
    return { ok: false, error: `could not resolve ${url.hostname}` };
  }
  const timedOut: SendResult = { ok: false, error: `no response within ${options.timeoutMs} ms`, timedOut: true };
  if (deadline.aborted) return timedOut;
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const settle = (result: SendResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const request = transport.request(
      url,
      {
        method: "POST",
        headers: {
          ...headers,
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "MemoryLedger-Webhooks/1",
        },
        lookup: pinned,
        agent: false,
        signal: deadline,
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        response.destroy();
        if (statusCode >= 200 && statusCode < 300) settle({ ok: true, statusCode });
        else if (statusCode >= 300 && statusCode < 400) {
          settle({ ok: false, statusCode, error: `redirect (HTTP ${statusCode}) not followed` });
        } else settle({ ok: false, statusCode, error: `HTTP ${statusCode}` });
      },
    );
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (deadline.aborted) settle(timedOut);
      else settle({ ok: false, error: `connection failed (${error.code ?? error.name})` });
    });
    request.end(body);
  });
}
