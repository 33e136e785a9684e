import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { startChatTurn } from "@/lib/chat/turn";
import type { MemoryContext } from "@/lib/memory";
import { type LatencySummary, summarize } from "../metrics";

export interface ChatFigure {
  /** How the turn was driven: in-process through startChatTurn (no HTTP, no auth). */
  transport: string;
  recallOn: { memories: number; ttftMs: LatencySummary; totalMs: LatencySummary };
  recallOff: { memories: number; ttftMs: LatencySummary; totalMs: LatencySummary };
}

const FIRST_TEXT = '"type":"text-delta"';

/**
 * Time to first token of one chat turn with the offline model: from calling startChatTurn (which stores the
 * message and recalls memories before the model starts) to the first text delta of the UI message stream, then to
 * its end. "Off" is a user with no memories, since recall cannot be switched off: it costs one search over nothing.
 */
export async function measureChat(
  withMemories: { ctx: MemoryContext; memories: number; questions: readonly string[] },
  empty: MemoryContext,
  turns: number,
): Promise<ChatFigure> {
  const model = new OfflineLanguageModel();
  let thread = 0;
  const run = async (ctx: MemoryContext, question: string) => {
    thread++;
    const start = performance.now();
    const turn = await startChatTurn(
      { memory: ctx, model, modelId: "offline", contextTokens: 8_000 },
      {
        id: `bench-${thread}`,
        trigger: "submit-message",
        message: { id: `bench-${thread}-q`, role: "user", parts: [{ type: "text", text: question }] },
      },
    );
    const { firstText, end } = await readStream(turn.response);
    return { ttft: firstText - start, total: end - start };
  };
  const series = async (ctx: MemoryContext) => {
    const ttft: number[] = [];
    const total: number[] = [];
    for (let i = 0; i < turns; i++) {
      const question = withMemories.questions[i % withMemories.questions.length] as string;
      const timing = await run(ctx, question);
      ttft.push(timing.ttft);
      total.push(timing.total);
    }
    return { ttftMs: summarize(ttft), totalMs: summarize(total) };
  };
  await run(withMemories.ctx, withMemories.questions[0] ?? "hello");
  const recallOn = { memories: withMemories.memories, ...(await series(withMemories.ctx)) };
  const recallOff = { memories: 0, ...(await series(empty)) };
  return { transport: "in-process startChatTurn (no HTTP)", recallOn, recallOff };
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
