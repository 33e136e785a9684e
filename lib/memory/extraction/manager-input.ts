// What the manager is shown and may do: the new messages, related memories and tombstones, and the kinds and ops
// it may write.

import { defaultKinds, type MemoryContext } from "@/lib/memory/core";
import { searchMemories } from "@/lib/memory/search";
import { listMemories } from "@/lib/memory/store";
import type { PromptMemory, PromptMessage } from "./prompt";

export interface ExtractionConfig {
  /** Kinds the manager may insert (default: every registered kind except profile and document). */
  kinds?: string[];
  instructions?: string;
  enableInserts?: boolean;
  enableUpdates?: boolean;
  enableDeletes?: boolean;
  /** How many of the newest user messages are used as search queries for related memories. */
  searchQueries?: number;
  /** How many existing memories the manager sees at most. */
  memoriesShown?: number;
  /** Keep one profile document per namespace, updated in place, instead of separate memories. */
  profileMode?: boolean;
}

/** Related active memories (searched with the newest user messages, then the most recent) and recent tombstones. */
export async function gatherContext(ctx: MemoryContext, newMessages: PromptMessage[], config: ExtractionConfig) {
  const shownLimit = config.memoriesShown ?? 12;
  const queries = newMessages
    .filter((message) => message.role === "user" && message.text.trim())
    .slice(-(config.searchQueries ?? 3))
    .map((message) => message.text.slice(0, 2_000));
  const existing = new Map<string, PromptMemory>();
  const deleted = new Set<string>();
  for (const query of queries) {
    for (const { memory } of await searchMemories(ctx, { query, limit: shownLimit })) {
      existing.set(memory.id, { id: memory.id, version: memory.version, kind: memory.kind, text: memory.text });
    }
    for (const { memory } of await searchMemories(ctx, { query, limit: 5, status: "deleted" })) {
      if (memory.text) deleted.add(memory.text);
    }
  }
  // Per-user namespaces are small: fill up with the most recent memories, so a fact the new messages change without
  // sharing its words (moving from Porto to Lisbon) is still in view.
  const now = ctx.clock().getTime();
  for (const memory of (await listMemories(ctx, { limit: shownLimit })).memories) {
    if (existing.size >= shownLimit) break;
    // A superseded fact is history: the manager is not to rewrite it (search leaves these out already).
    if (memory.validTo && memory.validTo.getTime() <= now) continue;
    existing.set(memory.id, { id: memory.id, version: memory.version, kind: memory.kind, text: memory.text });
  }
  if (config.profileMode) {
    const [profile] = (await listMemories(ctx, { kind: "profile", limit: 1 })).memories;
    if (profile)
      existing.set(profile.id, { id: profile.id, version: profile.version, kind: "profile", text: profile.text });
  }
  for (const memory of (await listMemories(ctx, { status: "deleted", limit: 10 })).memories) {
    if (memory.text) deleted.add(memory.text);
  }
  return { existing: [...existing.values()].slice(0, shownLimit), deleted: [...deleted] };
}

export function allowedKinds(ctx: MemoryContext, config: ExtractionConfig): string[] {
  if (config.profileMode) return ["profile"];
  // The profile is kept by profile mode only; documents are other apps' raw values, not conversation facts.
  return (
    config.kinds ?? (ctx.kinds ?? defaultKinds).names().filter((name) => name !== "profile" && name !== "document")
  );
}

export function allowedOps(config: ExtractionConfig): string[] {
  return [
    ...(config.enableInserts === false ? [] : ["insert"]),
    ...(config.enableUpdates === false ? [] : ["update"]),
    ...(config.enableDeletes === false ? [] : ["delete"]),
  ];
}

/** An assistant message the chat marked incomplete (the stream broke off or was stopped). */
export function isIncomplete(message: { role: string; metadata: Record<string, unknown> | null }): boolean {
  return message.role !== "user" && message.metadata?.incomplete === true;
}

/** A message that ends an exchange: the assistant's, and complete. */
export function isAnswer(message: { role: string; metadata: Record<string, unknown> | null }): boolean {
  return message.role !== "user" && !isIncomplete(message);
}

export function textOfParts(parts: unknown[]): string {
  return parts
    .map((part) => {
      const { type, text } = (part ?? {}) as { type?: string; text?: unknown };
      return type === "text" && typeof text === "string" ? text : "";
    })
    .filter(Boolean)
    .join("\n");
}
