import { Brain, Hourglass, Search, Trash2, TriangleAlert } from "lucide-react";
import Link from "next/link";
import type { ChatMessage } from "@/lib/chat/types";
import type { ProposalJson } from "@/lib/memory/contract";
import { cn } from "@/lib/utils";

type Part = ChatMessage["parts"][number];
type ManagePart = Extract<Part, { type: "tool-manage_memory" }>;
type SearchPart = Extract<Part, { type: "tool-search_memory" }>;

const PENDING: Record<string, string> = {
  create: "Saving memory…",
  update: "Updating memory…",
  delete: "Deleting memory…",
};
const DONE: Record<string, string> = {
  created: "Saved",
  unchanged: "Already remembered",
  updated: "Updated",
  superseded: "Updated (the old value kept as history)",
  deleted: "Deleted",
};
/** What a held change would do, by the op the model asked for. */
const PROPOSED_OP: Record<string, string> = { create: "save", update: "change", delete: "delete" };

/**
 * A readable line for one memory tool call, linking to the memory it touched. A change held for review says so, and
 * how it was decided once `proposal` (the proposal as it now stands) is known.
 */
export function ToolChip({ part, proposal }: { part: ManagePart | SearchPart; proposal?: ProposalJson }) {
  if (part.state === "output-error") {
    const verb = part.type === "tool-search_memory" ? "search memories" : `${part.input?.action ?? "change"} memory`;
    return (
      <Chip tone="error" icon={<TriangleAlert className="size-3.5" aria-hidden />}>
        Couldn't {verb}: {part.errorText.replace(/^Error:\s*/, "")}
      </Chip>
    );
  }
  if (part.type === "tool-search_memory") {
    if (part.state !== "output-available")
      return <Chip icon={<Search className="size-3.5" aria-hidden />}>Searching memories…</Chip>;
    const count = part.output.length;
    return (
      <Chip icon={<Search className="size-3.5" aria-hidden />}>
        Searched memories · {count} {count === 1 ? "result" : "results"}
      </Chip>
    );
  }
  if (part.state !== "output-available") {
    return (
      <Chip icon={<Brain className="size-3.5" aria-hidden />}>
        {PENDING[part.input?.action ?? "create"] ?? "Saving memory…"}
      </Chip>
    );
  }
  const { output } = part;
  const Icon = output.action === "deleted" ? Trash2 : Brain;
  if (output.action === "proposed") {
    const op = PROPOSED_OP[output.op] ?? output.op;
    const status = proposal?.status ?? "pending";
    const decided: Record<string, string> = { approved: "Approved", rejected: "Rejected" };
    const label =
      status !== "pending"
        ? `${decided[status] ?? status} (${op})`
        : `${output.cause === "already_pending" ? "Already awaiting" : "Awaiting"} your review (${op})`;
    const href =
      status === "approved" && proposal?.memoryId && output.op !== "delete"
        ? `/memories/${proposal.memoryId}`
        : "/memories/review";
    return (
      <div className="space-y-1">
        <Chip
          icon={
            output.op === "delete" ? (
              <Trash2 className="size-3.5" aria-hidden />
            ) : (
              <Hourglass className="size-3.5" aria-hidden />
            )
          }
        >
          <Link href={href} className="hover:underline" data-testid="memory-chip" data-status={status}>
            {label}: {output.text}
          </Link>
        </Chip>
        {output.cause === "restated" ? (
          <p className="text-muted-foreground text-xs" data-testid="memory-chip-reason">
            {output.reason}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <Chip icon={<Icon className="size-3.5" aria-hidden />}>
      <Link href={`/memories/${output.id}`} className="hover:underline" data-testid="memory-chip">
        {DONE[output.action]}: {output.text}
      </Link>
    </Chip>
  );
}

function Chip({ children, icon, tone }: { children: React.ReactNode; icon: React.ReactNode; tone?: "error" }) {
  return (
    <div
      className={cn(
        "inline-flex max-w-full items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs",
        tone === "error"
          ? "border-destructive/40 bg-destructive/10 text-destructive"
          : "bg-muted text-muted-foreground",
      )}
    >
      {icon}
      <span className="truncate">{children}</span>
    </div>
  );
}
