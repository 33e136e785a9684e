import Link from "next/link";
import type { ChatMessage, RecalledMemory } from "@/lib/chat/types";

/** Recalled memories plus those a search_memory call returned, each listed once with the best score seen. */
export function memoriesUsed(message: ChatMessage): RecalledMemory[] {
  const byId = new Map<string, RecalledMemory>();
  const add = (memory: RecalledMemory) => {
    const seen = byId.get(memory.id);
    if (!seen || seen.score < memory.score) byId.set(memory.id, memory);
  };
  for (const memory of message.metadata?.recalled ?? []) add(memory);
  for (const part of message.parts) {
    if (part.type === "tool-search_memory" && part.state === "output-available") {
      for (const hit of part.output) add({ id: hit.id, kind: hit.kind, text: hit.content, score: hit.score });
    }
  }
  return [...byId.values()];
}

export function MemoriesUsed({ message }: { message: ChatMessage }) {
  const used = memoriesUsed(message);
  if (used.length === 0) return null;
  return (
    <details className="group mt-2 text-xs" data-testid="memories-used">
      <summary className="cursor-pointer select-none text-muted-foreground hover:text-foreground">
        Memories used ({used.length})
      </summary>
      <ul className="mt-2 space-y-1 border-l-2 pl-3">
        {used.map((memory) => (
          <li key={memory.id}>
            <Link href={`/memories/${memory.id}`} className="hover:underline">
              {memory.text}
            </Link>{" "}
            <span className="text-muted-foreground">· {memory.kind}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
