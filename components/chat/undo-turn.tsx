"use client";

import { Undo2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { formatDateTime } from "@/components/console/format";
import { SkippedMemories } from "@/components/console/skipped-memories";
import { Button } from "@/components/ui/button";
import type { ChatMessage } from "@/lib/chat/types";

/** A memory the turn wrote: its text, and what undoing the turn does to it. */
export interface Written {
  text: string;
  undo: "Removed" | "Changed back" | "Restored" | "Reopened";
}

interface Undone {
  reverted: string[];
  skipped: Array<{ memoryId: string; reason: string }>;
  withdrawn: string[];
}

/** Answers undone in this page's life: a finished turn re-renders the thread, and the outcome must stay in view. */
const outcomes = new Map<string, Undone>();

/**
 * Whether an answer offers Undo or says it was undone: it wrote memories, holds changes still waiting for review, or
 * was undone (before this page loaded, or in it). Undoing a turn that only held proposals withdraws them, so after
 * the proposals reload nothing else would keep its outcome in view.
 */
export function showsUndo(message: ChatMessage, changed: boolean, holdsPending: boolean): boolean {
  return changed || holdsPending || Boolean(message.metadata?.memoryRevertedAt) || outcomes.has(message.id);
}

/**
 * Undoes the memory changes of one answer's turn (POST /api/v1/messages/:id/revert): what it wrote is put back and
 * what it held for review is withdrawn; a memory changed since is left as it is and named with why, as when a run is
 * undone (docs/memory-model.md). `written` names the memories the turn touched, to say which were put back.
 */
export function UndoTurn({
  answerId,
  undoneAt,
  written,
  onUndone,
}: {
  answerId: string;
  /** When the turn was undone before this page loaded. */
  undoneAt?: string;
  written: ReadonlyMap<string, Written>;
  onUndone: () => void;
}) {
  const [outcome, setOutcome] = useState<Undone | null>(() => outcomes.get(answerId) ?? null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = (memoryId: string) => written.get(memoryId)?.text ?? `memory ${memoryId.slice(0, 8)}`;

  async function undo() {
    setSending(true);
    setError(null);
    const response = await fetch(`/api/v1/messages/${encodeURIComponent(answerId)}/revert`, { method: "POST" }).catch(
      () => null,
    );
    const body = (await response?.json().catch(() => null)) as (Undone & { error?: { message?: string } }) | null;
    setSending(false);
    if (!response?.ok || !body) {
      setError(
        body?.error?.message ??
          (response ? `Could not undo (HTTP ${response.status}).` : "Not sent: the server could not be reached."),
      );
      return;
    }
    const done = { reverted: body.reverted ?? [], skipped: body.skipped ?? [], withdrawn: body.withdrawn ?? [] };
    outcomes.set(answerId, done);
    setOutcome(done);
    onUndone();
  }

  if (outcome) {
    const count = outcome.reverted.length;
    const withdrawn = outcome.withdrawn.length;
    return (
      <div className="space-y-1 text-muted-foreground text-xs" role="status" data-testid="turn-undone">
        <p>
          Undone: {count} {count === 1 ? "change" : "changes"} reverted
          {withdrawn > 0 ? `, ${withdrawn} ${withdrawn === 1 ? "proposal" : "proposals"} withdrawn` : ""}
          {outcome.skipped.length > 0
            ? `; ${outcome.skipped.length} left as ${outcome.skipped.length === 1 ? "it is" : "they are"}:`
            : "."}
        </p>
        {count > 0 ? (
          <ul className="list-disc pl-5" data-testid="undo-reverted">
            {outcome.reverted.map((memoryId) => (
              <li key={memoryId}>
                {written.get(memoryId)?.undo ?? "Put back"}:{" "}
                <Link href={`/memories/${memoryId}`} className="hover:underline">
                  {name(memoryId)}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        <SkippedMemories skipped={outcome.skipped} name={name} testId="undo-skipped" />
      </div>
    );
  }
  if (undoneAt) {
    return (
      <p className="text-muted-foreground text-xs" data-testid="turn-undone">
        This answer's memory changes were undone ({formatDateTime(undoneAt)}).
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs">
      <Button
        type="button"
        size="sm"
        variant="outline"
        className="h-7"
        disabled={sending}
        onClick={() => void undo()}
        data-testid="undo-turn"
      >
        <Undo2 className="size-3.5" aria-hidden /> {sending ? "Undoing…" : "Undo"}
        <span className="sr-only"> this answer's memory changes</span>
      </Button>
      {error ? (
        <p role="alert" className="text-destructive" data-testid="undo-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The memories an answer's turn wrote, by id, with their text and what undoing does to each (by what the turn first
 * did to it), and whether it wrote anything Undo could put back.
 */
export function writtenBy(message: ChatMessage) {
  const written = new Map<string, Written>();
  let changed = false;
  const note = (id: string, text: string, undo: Written["undo"]) => {
    if (!written.has(id)) written.set(id, { text, undo });
  };
  for (const part of message.parts) {
    if (part.type !== "tool-manage_memory" || part.state !== "output-available") continue;
    const { output } = part;
    if (output.action === "proposed" || output.action === "unchanged") continue;
    if (output.action === "superseded" && output.supersededId) {
      note(output.supersededId, `the value before "${output.text}"`, "Reopened");
    }
    note(output.id, output.text, UNDO_OF[output.action]);
    changed = true;
  }
  return { written, changed };
}

const UNDO_OF = { created: "Removed", updated: "Changed back", superseded: "Removed", deleted: "Restored" } as const;
