import type { ChatMessage } from "./types";

/**
 * Answers stored before the memory tools answered in the model-facing shape (lib/memory/contract/vocabulary.ts) carry a
 * memory's words as `content`; read here as `text`, so an old chat shows, and is replayed to the model, like a new one.
 */
export function upgradeStoredParts(parts: unknown[]): ChatMessage["parts"] {
  return parts.map((part) => {
    const { type, state, output } = part as { type?: unknown; state?: unknown; output?: unknown };
    if (state !== "output-available") return part;
    if (type === "tool-manage_memory") return { ...(part as object), output: withText(output) };
    if (type === "tool-search_memory" && Array.isArray(output)) {
      return { ...(part as object), output: output.map(withText) };
    }
    return part;
  }) as ChatMessage["parts"];
}

function withText(value: unknown): unknown {
  if (typeof value !== "object" || value === null || "text" in value || !("content" in value)) return value;
  const { content, ...rest } = value as { content: unknown };
  return typeof content === "string" ? { ...rest, text: content } : value;
}
