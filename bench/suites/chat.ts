import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { startChatTurn } from "@/lib/chat/turn";
import type { MemoryContext } from "@/lib/memory/core";
import { type LatencySummary, summarize } from "../metrics";

export interface ChatFigure {
  database: string;
  /** How the turn was driven. */
  transport: string;
  recallOn: { memories: number; ttftMs: LatencySummary; totalMs: LatencySummary };
  recallOff: { memories: number; ttftMs: LatencySummary; totalMs: LatencySummary };
}

const FIRST_TEXT = '"type":"text-delta"';

/**
 * Time to first token of one chat turn with the offline model, over HTTP: from sending the request (the server
 * stores the message and recalls memories before the model starts) to the first text delta of the UI message
 * stream, then to its end. "Off" is a user with no memories, since recall cannot be switched off: it costs one search over nothing.
 */
export async function measureChat(
  withMemories: { ctx: MemoryContext; memories: number; questions: readonly string[] },
  empty: MemoryContext,
  turns: number,
): Promise<ChatFigure> {
  const model = new OfflineLanguageModel();
  const contexts = new Map([
    ["recall", withMemories.ctx],
    ["empty", empty],
  ]);
  const server = await serveTurns(model, contexts);
  let thread = 0;
  const run = async (user: string, question: string) => {
    thread++;
    const start = performance.now();
    const response = await fetch(`${server.url}/${user}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id: `bench-${thread}`,
        trigger: "submit-message",
        message: { id: `bench-${thread}-q`, role: "user", parts: [{ type: "text", text: question }] },
      }),
    });
    const { firstText, end } = await readStream(response);
    return { ttft: firstText - start, total: end - start };
  };
  const series = async (user: string) => {
    const ttft: number[] = [];
    const total: number[] = [];
    for (let i = 0; i < turns; i++) {
      const question = withMemories.questions[i % withMemories.questions.length] as string;
      const timing = await run(user, question);
      ttft.push(timing.ttft);
      total.push(timing.total);
    }
    return { ttftMs: summarize(ttft), totalMs: summarize(total) };
  };
  try {
    await run("recall", withMemories.questions[0] ?? "hello");
    const recallOn = { memories: withMemories.memories, ...(await series("recall")) };
    const recallOff = { memories: 0, ...(await series("empty")) };
    return {
      database: withMemories.ctx.database.kind,
      transport: "HTTP on localhost into startChatTurn (no auth)",
      recallOn,
      recallOff,
    };
  } finally {
    await server.close();
  }
}

/**
 * A local HTTP server that hands each POSTed chat request to startChatTurn, as the chat route does after auth,
 * and streams the UI message stream back: the figure includes a real socket, JSON parsing and streaming.
 */
async function serveTurns(model: OfflineLanguageModel, contexts: ReadonlyMap<string, MemoryContext>) {
  const server = createServer(async (request, reply) => {
    try {
      const ctx = contexts.get((request.url ?? "").slice(1));
      if (!ctx) throw new Error(`unknown bench user ${request.url}`);
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const turn = await startChatTurn(
        { memory: ctx, model, modelId: "offline", contextTokens: 8_000 },
        JSON.parse(Buffer.concat(chunks).toString("utf8")),
      );
      reply.writeHead(turn.response.status, Object.fromEntries(turn.response.headers));
      const reader = turn.response.body?.getReader();
      for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read())
        reply.write(chunk.value);
      reply.end();
      await turn.afterResponse();
    } catch (error) {
      reply.writeHead(500, { "content-type": "text/plain" }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function readStream(response: Response): Promise<{ firstText: number; end: number }> {
  if (!response.body) throw new Error("the chat turn has no body");
  const decoder = new TextDecoder();
  let firstText = Number.NaN;
  let seen = "";
  const reader = response.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (Number.isNaN(firstText)) {
      seen += decoder.decode(chunk.value, { stream: true });
      if (seen.includes(FIRST_TEXT)) firstText = performance.now();
    }
  }
  if (Number.isNaN(firstText)) throw new Error("the chat turn streamed no text");
  return { firstText, end: performance.now() };
}
