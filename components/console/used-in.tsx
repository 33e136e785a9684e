import Link from "next/link";
import type { MemoryUse } from "@/lib/console/usage";
import { formatDateTime } from "./format";
import { messageHref } from "./source-panel";

/** The answers this memory shaped, linking to each in its chat. */
export function UsedIn({
  uses,
  truncated,
  linkToChat,
}: {
  uses: MemoryUse[];
  /** More answers used it than are listed. */
  truncated: boolean;
  linkToChat: boolean;
}) {
  if (uses.length === 0) {
    return <p className="text-muted-foreground text-sm">No answer has used this memory yet.</p>;
  }
  return (
    <div className="space-y-2">
      <ul className="space-y-2 text-sm" data-testid="memory-used-in">
        {uses.map((use) => (
          <li key={`${use.messageId}-${use.via}`} className="flex flex-wrap items-center gap-x-2">
            {linkToChat ? (
              <Link href={messageHref(use.threadId, use.messageId)} className="font-medium hover:underline">
                {use.threadTitle ?? "Untitled chat"}
              </Link>
            ) : (
              <span className="font-medium">{use.threadTitle ?? "Untitled chat"}</span>
            )}
            <span className="text-muted-foreground">
              {use.via === "recall" ? "recalled before answering" : "found by a search"} · rank {use.rank + 1} · score{" "}
              {use.score.toFixed(3)} · {formatDateTime(use.createdAt)}
            </span>
          </li>
        ))}
      </ul>
      {truncated ? (
        <p className="text-muted-foreground text-xs">
          Showing the latest {uses.length} answers; older ones used it too.
        </p>
      ) : null}
    </div>
  );
}
