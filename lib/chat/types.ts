import type { InferUITools, UIMessage } from "ai";
import type { MemoryHit } from "@/lib/memory/contract";
import type { createMemoryTools } from "./memory-tools";

/**
 * A memory that was put in front of the model for an answer, as the "Memories used" disclosure shows it: the
 * model-facing shape (lib/memory/contract/vocabulary.ts) with its score; `pinned` when the user pinned it (recalled every turn).
 */
export type RecalledMemory = MemoryHit;

export interface ChatMessageMetadata {
  createdAt?: string;
  /** The `provider:model` that wrote an assistant message. */
  model?: string;
  /** Memories recalled into the instructions before the model answered. */
  recalled?: RecalledMemory[];
  /** The answer broke off (a provider failure, or stopped): what arrived is kept, but it is not a complete answer. */
  incomplete?: boolean;
  /** The version of the user's instructions in the system prompt of this answer (absent: none yet). */
  instructionsVersion?: number;
  /** Why an incomplete answer broke off, as the person was told. */
  failure?: string;
  /** An answer: when the memory changes of its turn were undone (read from the stored message, never sent). */
  memoryRevertedAt?: string;
}

export type ChatTools = InferUITools<ReturnType<typeof createMemoryTools>>;
export type ChatMessage = UIMessage<ChatMessageMetadata, Record<string, never>, ChatTools>;
