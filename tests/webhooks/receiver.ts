import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * What the receiver does with the next request: answer with a status (and headers), optionally only `afterMs` later
 * (a slow receiver), or never answer.
 */
export type Reply = { status: number; headers?: Record<string, string>; afterMs?: number } | "stall";

/**
 * A local HTTP receiver for webhook tests: records every request with its raw body and answers from a script
 * (then with `fallback`), so a test can make it fail, redirect or stall on chosen attempts.
 */
export async function startReceiver(fallback: Reply = { status: 200 }) {
  const received: ReceivedRequest[] = [];
  const script: Reply[] = [];
  const sockets = new Set<Socket>();
  const late = new Set<NodeJS.Timeout>();
  let otherwise = fallback;
  const answer = (response: ServerResponse, reply: Reply) => {
    if (reply === "stall") return;
    const send = () => {
      if (response.destroyed) return;
      response.writeHead(reply.status, reply.headers);
      response.end("ok");
    };
    if (!reply.afterMs) return send();
    const timer = setTimeout(() => {
      late.delete(timer);
      send();
    }, reply.afterMs);
    late.add(timer);
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      answer(response, script.shift() ?? otherwise);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    port,
    received,
    /** Replies for the next requests, in order. */
    reply: (...replies: Reply[]) => script.push(...replies),
    /** The reply once the script is used up. */
    otherwise: (reply: Reply) => {
      otherwise = reply;
    },
    close: async () => {
      for (const timer of late) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Polls until `probe` holds: the wait is for the queue's worker, never a measure of time. */
export async function until(probe: () => Promise<boolean> | boolean, what: string, limitMs = 30_000) {
  for (let waited = 0; !(await probe()); waited += 50) {
    if (waited > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
