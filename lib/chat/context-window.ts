import type { ChatMessage } from "./types";

/** Roughly four characters a token: close enough to keep a conversation inside a model's window. */
export function estimateTokens(message: ChatMessage): number {
  return Math.ceil(JSON.stringify(message.parts).length / 4);
}

export interface WindowPlan {
  /** Messages to fold into the running summary: positions [foldFrom, keepFrom). */
  fold: ChatMessage[];
  /** Position of the first message sent to the model verbatim. */
  keepFrom: number;
}

/**
 * Chooses what the model sees verbatim within `budget` tokens, newest first. Whole UI messages are the unit, and a
 * UI message carries each tool call together with its result, so a call is never separated from its result and no
 * tool message can be sent twice. The newest message (the user's turn) is always kept, whatever its size, and the
 * kept window starts at a user message so no answer is shown without its question.
 */
export function planContextWindow(
  messages: readonly ChatMessage[],
  summarizedThrough: number,
  budget: number,
): WindowPlan {
  const start = Math.min(Math.max(summarizedThrough, 0), Math.max(messages.length - 1, 0));
  let keepFrom = messages.length - 1;
  let used = messages.length ? estimateTokens(messages[keepFrom]!) : 0;
  for (let index = keepFrom - 1; index >= start; index--) {
    used += estimateTokens(messages[index]!);
    if (used > budget) break;
    keepFrom = index;
  }
  while (keepFrom > start && messages[keepFrom]?.role !== "user") keepFrom++;
  if (keepFrom >= messages.length) keepFrom = Math.max(messages.length - 1, start);
  return { fold: messages.slice(start, keepFrom), keepFrom };
}

/** A plain-text transcript for the summarizer: tool calls appear as one line each, never as tool messages. */
export function transcript(messages: readonly ChatMessage[]): string {
  return messages
    .map((message) => {
      const lines = message.parts.flatMap((part) => {
        if (part.type === "text") return [part.text];
        if (part.type.startsWith("tool-") && "input" in part) {
          return [`[${part.type.slice(5)} ${JSON.stringify(part.input)}]`];
        }
        return [];
      });
      return `${message.role === "user" ? "User" : "Assistant"}: ${lines.join("\n")}`;
    })
    .join("\n\n");
}
