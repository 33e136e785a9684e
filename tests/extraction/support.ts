import type { LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { ensureThread, loadMessages, writeMessagesFrom } from "@/lib/chat/threads";
import type { ChatMessage } from "@/lib/chat/types";
import type { Database } from "@/lib/db/client";
import { type ExtractionOp, toWireOp } from "@/lib/memory/extraction";
import { bindingFor } from "../memory/support";

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};

/** A manager model that answers each call with the next scripted list of ops, as structured-output JSON. */
export function scriptedManager(...answers: ExtractionOp[][]) {
  return rawManager(...answers.map((ops) => JSON.stringify({ ops: ops.map(toWireOp) })));
}

/** A manager model that answers each call with the next scripted text, whatever it is. */
export function rawManager(...answers: string[]) {
  return new MockLanguageModelV4({
    doGenerate: answers.map(
      (text): LanguageModelV4GenerateResult => ({
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      }),
    ),
  });
}

/** Appends user/assistant text messages to a thread, as the chat would store them. */
export async function addExchange(
  database: Database,
  userId: string,
  threadId: string,
  ...turns: Array<[id: string, role: "user" | "assistant", text: string]>
) {
  await ensureThread(bindingFor(database, userId), threadId);
  const stored = await loadMessages(bindingFor(database, userId), threadId);
  const added: ChatMessage[] = turns.map(([id, role, text]) => ({ id, role, parts: [{ type: "text", text }] }));
  await writeMessagesFrom(bindingFor(database, userId), threadId, [...stored, ...added], stored.length);
}
