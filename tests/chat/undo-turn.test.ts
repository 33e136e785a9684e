import { expect, it } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { loadMessages } from "@/lib/chat/threads";
import { startChatTurn } from "@/lib/chat/turn";
import { undoTurn } from "@/lib/chat/undo-turn";
import type { MemoryContext } from "@/lib/memory/core";
import { listProposals, updateSettings } from "@/lib/memory/review";
import { createMemory, getMemory, listMemories, memoryHistory, updateMemory } from "@/lib/memory/store";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { finalMessage } from "./support";

const textOf = (message: { parts: Array<{ type: string; text?: string }> }) =>
  message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");

describeEachDatabase("undoing a chat turn's memory changes", (use) => {
  let turns = 0;
  /** One turn with the offline model; returns the stored answer. */
  async function say(memory: MemoryContext, threadId: string, text: string) {
    const turn = await startChatTurn(
      { memory, model: new OfflineLanguageModel(), modelId: "offline", contextTokens: 8_000 },
      {
        id: threadId,
        trigger: "submit-message",
        message: { id: `u-${++turns}`, role: "user", parts: [{ type: "text", text }] },
      },
    );
    return finalMessage(turn.response);
  }

  it("reverts exactly that turn's writes; a memory the user edited since is skipped with the reason; once only", async () => {
    const memory = contextFor(use(), await createUser(use()));
    const porto = await createMemory(memory, { content: "User lives in Porto" });
    const first = await say(memory, "t-undo", "I live in Lisbon. I play the cello.");
    const second = await say(memory, "t-undo", "I work as a nurse.");
    const live = async () => (await listMemories(memory)).memories.map((m) => m.text).sort();
    expect(await live()).toEqual(["User lives in Lisbon", "User plays the cello", "User works as a nurse"]);
    const cello = (await listMemories(memory)).memories.find((m) => m.text === "User plays the cello")!;
    await updateMemory(memory, cello.id, { content: "User plays the cello and the viola" });

    const undone = await undoTurn(memory, first.id);
    expect(undone).toEqual({
      messageId: first.id,
      reverted: [porto.id],
      skipped: [
        {
          memoryId: cello.id,
          reason: "changed since this turn (this turn left version 1, it is now at version 2, last changed by you)",
        },
      ],
      withdrawn: [],
    });
    expect(await live()).toEqual([
      "User lives in Porto",
      "User plays the cello and the viola",
      "User works as a nurse",
    ]);
    expect((await memoryHistory(memory, porto.id)).at(-1)).toMatchObject({
      version: 3,
      reason: `undid chat turn ${first.id}`,
      actor: { type: "user" },
    });

    const stored = await loadMessages(memory, "t-undo");
    expect(stored.find((message) => message.id === first.id)?.metadata?.memoryRevertedAt).toEqual(expect.any(String));
    expect(stored.find((message) => message.id === second.id)?.metadata?.memoryRevertedAt).toBeUndefined();
    await expect(undoTurn(memory, first.id)).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/already undone/),
    });
    await expect(undoTurn(memory, "u-1")).rejects.toMatchObject({ code: "unprocessable" });
    const stranger = contextFor(use(), await createUser(use()));
    await expect(undoTurn(stranger, second.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("with review all, the turn's saves wait as proposals the answer mentions; undoing the turn withdraws them", async () => {
    const memory = contextFor(use(), await createUser(use()));
    await updateSettings(memory, { review: "all" });
    const answer = await say(memory, "t-review", "I play the cello. I work as a nurse.");
    expect(textOf(answer)).toMatch(/Saved for your review \(approve it under this answer\)/);
    expect((await listMemories(memory)).memories).toEqual([]);
    const { proposals } = await listProposals(memory, { status: "pending" });
    expect(proposals.map((proposal) => proposal.text).sort()).toEqual([
      "User plays the cello",
      "User works as a nurse",
    ]);
    expect(new Set(proposals.map((proposal) => proposal.messageId)).size).toBe(1);

    const undone = await undoTurn(memory, answer.id);
    expect(undone).toMatchObject({ reverted: [], skipped: [] });
    expect(undone.withdrawn.sort()).toEqual(proposals.map((proposal) => proposal.id).sort());
    expect((await listProposals(memory, { status: "pending" })).proposals).toEqual([]);
    expect((await listProposals(memory, { status: "rejected" })).proposals[0]?.decisionReason).toBe(
      "withdrawn: the chat turn was undone",
    );
    expect(await getMemory(memory, proposals[0]!.id).catch((error) => error.code)).toBe("not_found");
  });
});
