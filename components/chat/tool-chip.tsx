import { Brain, Search, Trash2, TriangleAlert } from "lucide-react";
import Link from "next/link";
import type { ChatMessage } from "@/lib/chat/types";
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
  proposed: "Awaiting your review",
};

/** A readable line for one memory tool call, linking to the memory it touched. */
export function ToolChip({ part }: { part: ManagePart | SearchPart }) {
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
    return (
      <Chip icon={<Trash2 className="size-3.5" aria-hidden />}>
        <Link href="/memories/review" className="hover:underline" data-testid="memory-chip">
          {DONE.proposed} (delete): {output.text}
        </Link>
      </Chip>
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
