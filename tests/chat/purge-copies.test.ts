import { expect, it } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { startChatTurn } from "@/lib/chat/turn";
import { listMemories, purgeMemory } from "@/lib/memory";
import { runExtraction } from "@/lib/memory/extraction";
import { scriptedManager } from "../extraction/support";
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
});
