"use client";

import { Pin } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import type { ChatMessage, RecalledMemory } from "@/lib/chat/types";

/**
 * Answers whose list is open, for this page's life. A finished turn refreshes the page as /chat/<id>, which renders
 * the thread anew: the list a person opened meanwhile stays open instead of snapping shut.
 */
const opened = new Set<string>();

/** Recalled memories plus those a search_memory call returned, each listed once with the best score seen. */
export function memoriesUsed(message: ChatMessage): RecalledMemory[] {
  const byId = new Map<string, RecalledMemory>();
  const add = (memory: RecalledMemory) => {
    const seen = byId.get(memory.id);
    if (!seen || seen.score < memory.score) byId.set(memory.id, { ...memory, pinned: memory.pinned || seen?.pinned });
  };
  for (const memory of message.metadata?.recalled ?? []) add(memory);
  for (const part of message.parts) {
    if (part.type === "tool-search_memory" && part.state === "output-available") {
      for (const hit of part.output) add(hit);
    }
  }
  return [...byId.values()];
}

export function MemoriesUsed({ message }: { message: ChatMessage }) {
  const used = memoriesUsed(message);
  const version = message.metadata?.instructionsVersion;
  const [open, setOpen] = useState(() => opened.has(message.id));
  if (used.length === 0 && version === undefined) return null;
  return (
    <div className="group mt-2 text-xs" data-testid="memories-used" data-state={open ? "open" : "closed"}>
      <button
        type="button"
        aria-expanded={open}
        className="cursor-pointer select-none text-muted-foreground hover:text-foreground"
        onClick={() => {
          if (open) opened.delete(message.id);
          else opened.add(message.id);
          setOpen(!open);
        }}
      >
        Memories used ({used.length})
      </button>
      {open ? (
        <>
          {version !== undefined ? (
            <p className="mt-2 border-l-2 pl-3" data-testid="instructions-used">
              <Link href="/memories/instructions" className="hover:underline">
                Your instructions, version {version}
              </Link>{" "}
              <span className="text-muted-foreground">· applied to this answer</span>
            </p>
          ) : null}
          <ul className="mt-2 space-y-1 border-l-2 pl-3">
            {used.map((memory) => (
              <li key={memory.id} data-pinned={memory.pinned ? "true" : undefined}>
                {memory.pinned ? (
                  <span
                    className="mr-1 inline-flex items-center gap-0.5 text-primary"
                    title="Pinned: recalled every turn"
                  >
                    <Pin className="size-3" aria-hidden />
                    <span className="sr-only">Pinned:</span>
                  </span>
                ) : null}
                <Link href={`/memories/${memory.id}`} className="hover:underline">
                  {memory.text}
                </Link>{" "}
                <span className="text-muted-foreground">· {memory.kind}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
