import type { InferUITools, UIMessage } from "ai";
import type { createMemoryTools } from "@/lib/memory";

/** A memory that was put in front of the model for an answer, as the "Memories used" disclosure shows it. */
export interface RecalledMemory {
  id: string;
  kind: string;
  text: string;
  score: number;
}

export interface ChatMessageMetadata {
  createdAt?: string;
  /** The `provider:model` that wrote an assistant message. */
  model?: string;
  /** Memories recalled into the instructions before the model answered. */
  recalled?: RecalledMemory[];
}

export type ChatTools = InferUITools<ReturnType<typeof createMemoryTools>>;
export type ChatMessage = UIMessage<ChatMessageMetadata, Record<string, never>, ChatTools>;
