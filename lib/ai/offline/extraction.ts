import type { ExtractionOp } from "@/lib/memory/extraction/ops";
import type { PromptMemory, PromptMessage } from "@/lib/memory/extraction/prompt";
import { readIntent, sentences } from "./intent";

export interface ExtractionInput {
  kinds: string[];
  allowed: string[];
  existing: PromptMemory[];
  deleted: string[];
  messages: PromptMessage[];
}

/**
 * The offline memory manager: each user sentence the chat rules read as a statement becomes an insert, or an update
 * of the existing memory that fills the same slot ("prefers dark mode" → "prefers light mode"); "forget …" becomes a
 * delete of the best-matching memory. Validation downstream decides what is actually written.
 */
export function proposeOps(input: ExtractionInput): { ops: ExtractionOp[] } {
  const ops: ExtractionOp[] = [];
  const known = [...input.existing];
  const kind = input.kinds.includes("memory") ? "memory" : undefined;
  const statements = input.messages
    .filter((message) => message.role === "user")
    .flatMap((message) => sentences(message.text).map((quote) => ({ message, quote })));
  for (const { message, quote } of statements) {
    const intent = readIntent(quote);
    if (intent.type === "save" && kind) {
      if (known.some((memory) => memory.text === intent.content)) continue;
      const same = known.find((memory) => sameSlot(memory.text, intent.content));
      if (same && input.allowed.includes("update")) {
        ops.push({
          op: "update",
          id: same.id,
          expectedVersion: same.version,
          content: { content: intent.content },
          messageId: message.id,
          quote,
          reason: "The user stated a new value for this.",
        });
        same.text = intent.content;
      } else if (input.allowed.includes("insert")) {
        ops.push({ op: "insert", kind, content: { content: intent.content }, messageId: message.id, quote });
      }
    } else if (intent.type === "forget" && input.allowed.includes("delete")) {
      const target = bestMatch(known, intent.query);
      if (target) ops.push({ op: "delete", id: target.id, reason: "The user asked to forget this." });
    }
  }
  return { ops };
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/** Two statements fill the same slot when they share their opening and differ only in the value at the end. */
export function sameSlot(a: string, b: string): boolean {
  const left = words(a);
  const right = words(b);
  let prefix = 0;
  while (prefix < Math.min(left.length, right.length) && left[prefix] === right[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < Math.min(left.length, right.length) - prefix &&
    left[left.length - 1 - suffix] === right[right.length - 1 - suffix]
  ) {
    suffix++;
  }
  const restLeft = left.length - prefix - suffix;
  const restRight = right.length - prefix - suffix;
  if (prefix < 2 || restLeft === 0 || restRight === 0) return false;
  if (suffix >= 1) return restLeft <= 2 && restRight <= 2;
  return left.length === right.length && restLeft === 1;
}

const STOP = new Set(["the", "a", "an", "that", "i", "my", "me", "about", "user", "user's", "is", "are", "to", "of"]);

function bestMatch(memories: PromptMemory[], query: string): PromptMemory | undefined {
  const wanted = new Set(words(query).filter((word) => !STOP.has(word)));
  let best: { memory: PromptMemory; score: number } | undefined;
  for (const memory of memories) {
    const score = words(memory.text).filter((word) => wanted.has(word) || wanted.has(word.replace(/s$/, ""))).length;
    if (score > 0 && (!best || score > best.score)) best = { memory, score };
  }
  return best?.memory;
}
