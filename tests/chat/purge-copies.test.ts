import { APICallError } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { saveSummary } from "@/lib/chat/threads";
import { startChatTurn } from "@/lib/chat/turn";
import { runExtraction } from "@/lib/memory/extraction";
import { createMemory, listMemories, purgeMemory } from "@/lib/memory/store";
import { JobQueue } from "@/lib/server/queue";
import { addExchange, scriptedManager } from "../extraction/support";
import { contextFor, createUser, dumpAllRows } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { finalMessage } from "./support";

describeEachDatabase("purge reaches every copy", (use) => {
  it("erases the memory's text from answers, tool results, recall logs and extraction runs", async () => {
    const database = use();
    const userId = await createUser(database);
    const memory = contextFor(database, userId);
    const say = async (threadId: string, id: string, text: string) => {
      const turn = await startChatTurn(
        { memory, model: new OfflineLanguageModel(), modelId: "offline", contextTokens: 8_000 },
        { id: threadId, trigger: "submit-message", message: { id, role: "user", parts: [{ type: "text", text }] } },
      );
      await finalMessage(turn.response);
    };
    await say("p1", "p1-u", "Remember that I prefer dark mode");
    await say("p2", "p2-u", "What are my display preferences?");
    const [saved] = (await listMemories(memory, {})).memories;
    const manager = scriptedManager([
      {
        op: "insert",
        kind: "memory",
        content: { content: "User prefers dark mode" },
        messageId: "p1-u",
        quote: "I prefer dark mode",
      },
    ]);
    await runExtraction(
      { ctx: memory, model: manager, modelId: "mock" },
      { threadId: "p1", jobId: "j", finalAttempt: true },
    );
    expect((await dumpAllRows(database)).toLowerCase()).toContain("user prefers dark mode");

    await purgeMemory(memory, saved!.id);
    const dump = (await dumpAllRows(database)).toLowerCase();
    expect(dump).not.toContain("user prefers dark mode");
    // The user's own words stay until they delete the chat.
    expect(dump).toContain("remember that i prefer dark mode");
  });

  it("erases it from chat summaries and never lets it reach the job queue, even when the provider echoes the prompt", async () => {
    const database = use();
    const userId = await createUser(database);
    const memory = contextFor(database, userId);
    const fact = await createMemory(memory, { content: "User's locker code is 7319-QUARTZ" });
    await addExchange(database, userId, "q1", ["q1-u", "user", "What is my locker code?"], ["q1-a", "assistant", "…"]);
    await saveSummary(memory, "q1", "- User asked about lockers\n[manage_memory User's locker code is 7319-QUARTZ]", 2);

    // A hosted provider's error carries the request: the manager's prompt, with every memory it was shown.
    const failing = new MockLanguageModelV4({
      doGenerate: async (options) => {
        throw new APICallError({
          message: `Bad request: ${JSON.stringify(options.prompt)}`,
          url: "https://provider.test/v1/chat",
          requestBodyValues: { prompt: options.prompt },
          statusCode: 400,
          isRetryable: false,
        });
      },
    });
    const queue = await JobQueue.open(database, { pollingIntervalSeconds: 0.5, retryLimit: 0 });
    try {
      let attempts = 0;
      await queue.work(async (data, meta) => {
        attempts++;
        await runExtraction(
          { ctx: contextFor(database, data.userId), model: failing, modelId: "failing" },
          { threadId: data.threadId, jobId: meta.jobId, finalAttempt: meta.finalAttempt },
        );
      });
      await queue.enqueue({ userId, threadId: "q1" }, 0);
      for (let waited = 0; attempts === 0 || !(await failedJob(database)); waited += 100) {
        if (waited > 20_000) throw new Error("the job never failed");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await queue.stop(5_000);
    }
    const queueRows = (await dumpAllRows(database, ["pgboss"])).toLowerCase();
    expect(queueRows).toContain("job attempt failed: ai_apicallerror (http 400)");
    expect(queueRows).not.toContain("7319-quartz");
    expect((await dumpAllRows(database)).toLowerCase()).toContain("7319-quartz");

    await purgeMemory(memory, fact.id);
    const dump = (await dumpAllRows(database, ["public", "pgboss"])).toLowerCase();
    expect(dump).not.toContain("user's locker code is 7319-quartz");
    expect(dump).toContain("- user asked about lockers");
  });
});

async function failedJob(database: ReturnType<typeof contextFor>["database"]) {
  const [row] = await database.unbound.rows<{ n: number }>(
    sql`select count(*)::int as n from pgboss.job where state = 'failed'`,
  );
  return (row?.n ?? 0) > 0;
}
