import type { LanguageModelV4 } from "@ai-sdk/provider";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { ensureThread, writeMessagesFrom } from "@/lib/chat/threads";
import type { MemoryContext } from "@/lib/memory/core";
import { runExtraction } from "@/lib/memory/extraction";
import { type LatencySummary, summarize } from "../metrics";

export interface ExtractionFigure {
  runs: number;
  memories: number;
  totalMs: LatencySummary;
  modelMs: LatencySummary;
  /** The manager's own work: reading the thread, gathering related memories, validating and applying ops. */
  excludingModelMs: LatencySummary;
}

const EXCHANGES: Array<[string, string]> = [
  ["I switched to Helix as my editor and I prefer dark mode everywhere.", "Noted."],
  ["Remember that I moved to Porto last month. I am allergic to peanuts.", "Got it."],
  ["From now on answer in short bullet points. My partner is called Robin.", "Will do."],
];

/** An offline model that adds the time spent inside it to `elapsed`. */
function timedModel(inner: LanguageModelV4, elapsed: { ms: number }): LanguageModelV4 {
  const time = async <T>(work: () => PromiseLike<T>) => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      elapsed.ms += performance.now() - start;
    }
  };
  return {
    specificationVersion: inner.specificationVersion,
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    doGenerate: (options) => time(() => inner.doGenerate(options)),
    doStream: (options) => time(() => inner.doStream(options)),
  };
}

/** Runs the memory manager (runExtraction) over fresh one-exchange threads of a user who already has `memories`. */
export async function measureExtraction(ctx: MemoryContext, memories: number, runs: number): Promise<ExtractionFigure> {
  const extractor: MemoryContext = { ...ctx, actor: { type: "extractor", id: "offline" } };
  const total: number[] = [];
  const model: number[] = [];
  for (let run = 0; run < runs; run++) {
    const threadId = `bench-extraction-${run}`;
    const [question, answer] = EXCHANGES[run % EXCHANGES.length] as [string, string];
    await ensureThread(ctx, threadId);
    await writeMessagesFrom(
      ctx,
      threadId,
      [
        { id: `${threadId}-u`, role: "user", parts: [{ type: "text", text: question }] },
        { id: `${threadId}-a`, role: "assistant", parts: [{ type: "text", text: answer }] },
      ],
      0,
    );
    const elapsed = { ms: 0 };
    const start = performance.now();
    await runExtraction(
      { ctx: extractor, model: timedModel(new OfflineLanguageModel(), elapsed), modelId: "offline" },
      { threadId, jobId: `${threadId}-job`, finalAttempt: true },
    );
    total.push(performance.now() - start);
    model.push(elapsed.ms);
  }
  return {
    runs,
    memories,
    totalMs: summarize(total),
    modelMs: summarize(model),
    excludingModelMs: summarize(total.map((ms, index) => ms - (model[index] as number))),
  };
}
