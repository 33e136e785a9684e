import { afterAll, beforeAll, expect, it } from "vitest";
import { createModelRegistry, languageModel } from "@/lib/ai/registry";
import { getThread, loadMessages } from "@/lib/chat/threads";
import { startChatTurn } from "@/lib/chat/turn";
import { parseConfig } from "@/lib/config";
import { listMemories } from "@/lib/memory/store";
import { bindingFor, contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub";
import { finalMessage } from "./support";

describeEachDatabase("chat over a real OpenAI-compatible HTTP API", (use) => {
  let stub: OpenAIStub;
  beforeAll(async () => {
    stub = await startOpenAIStub([
      {
        toolCalls: [{ name: "manage_memory", arguments: { action: "create", content: "User is learning Portuguese" } }],
      },
      { text: "Boa sorte! I'll remember you are learning Portuguese." },
      { text: "Learning Portuguese" },
      // Overloaded through the SDK's two retries, each answer saying when to try again, as hosted APIs do.
      ...Array.from({ length: 3 }, () => ({ status: 503, error: "overloaded", retryAfter: "0" })),
    ]);
  });
  afterAll(() => stub.close());

  it("runs tool call → memory with provenance → streamed answer → persisted, then reports a provider failure", async () => {
    const database = use();
    const userId = await createUser(database);
    const memory = contextFor(database, userId);
    const registry = createModelRegistry(parseConfig({ OPENAI_COMPATIBLE_BASE_URL: stub.baseURL }));
    const model = languageModel(registry, "openai-compatible:stub-model");

    const turn = await startChatTurn(
      { memory, model, modelId: "openai-compatible:stub-model", contextTokens: 8_000 },
      {
        id: "http-thread",
        trigger: "submit-message",
        message: { id: "u-pt", role: "user", parts: [{ type: "text", text: "I am learning Portuguese" }] },
      },
    );
    const answer = await finalMessage(turn.response);
    await turn.afterResponse();

    expect(answer.parts.find((part) => part.type === "text")).toMatchObject({
      text: "Boa sorte! I'll remember you are learning Portuguese.",
    });
    const [saved] = (await listMemories(memory, {})).memories;
    expect(saved).toMatchObject({
      text: "User is learning Portuguese",
      actor: { type: "agent", id: "openai-compatible:stub-model" },
      source: { type: "chat", threadId: "http-thread", messageId: "u-pt", quote: "I am learning Portuguese" },
    });
    expect((await loadMessages(bindingFor(database, userId), "http-thread")).map((m) => m.role)).toEqual([
      "user",
      "assistant",
    ]);

    expect((await getThread(bindingFor(database, userId), "http-thread"))?.title).toBe("Learning Portuguese");
    const [first, second] = stub.requests;
    expect(first).toMatchObject({ model: "stub-model", stream: true });
    expect((first!.tools as Array<{ function: { name: string } }>).map((t) => t.function.name).sort()).toEqual([
      "manage_memory",
      "search_memory",
    ]);
    const toolMessage = (second!.messages as Array<{ role: string; content: string }>).find((m) => m.role === "tool");
    expect(JSON.parse(toolMessage!.content)).toMatchObject({
      action: "created",
      text: "User is learning Portuguese",
    });

    const failed = await startChatTurn(
      { memory, model, modelId: "openai-compatible:stub-model", contextTokens: 8_000 },
      {
        id: "http-thread",
        trigger: "submit-message",
        message: { id: "u-2", role: "user", parts: [{ type: "text", text: "Remember that I like fado" }] },
      },
    );
    await expect(finalMessage(failed.response)).rejects.toThrow(
      /^The model provider had a server error \(HTTP 50\d\); try again shortly\.$/,
    );
    expect(stub.requests).toHaveLength(6);
    expect((await listMemories(memory, {})).memories).toHaveLength(1);
    const stored = await loadMessages(bindingFor(database, userId), "http-thread");
    expect(stored.at(-1)).toMatchObject({ id: "u-2", role: "user" });
  });
});
