import type { MemoryVersionJson } from "@/lib/memory/contract";
import { Badge } from "./badges";
import { formatActor, formatDateTime, formatValidity } from "./format";
import { RevertButton } from "./revert-button";
import { WordDiff } from "./word-diff";

const OP_LABELS: Record<MemoryVersionJson["op"], string> = {
  create: "Created",
  update: "Updated",
  delete: "Deleted",
  restore: "Restored",
  purge: "Purged",
};

/**
 * The memory's timeline: every version, newest first, each diffed against the one before it, with when the fact
 * held in the world wherever that changed (a superseded fact gets its end date here) and each pin and unpin.
 */
export function HistoryPanel(props: {
  memoryId: string;
  versions: MemoryVersionJson[];
  currentVersion: number;
  currentText: string;
  ownerId: string;
  ownerLabel: string;
  canRevert: boolean;
}) {
  const newestFirst = [...props.versions].reverse();
  return (
    <ol className="space-y-4" data-testid="memory-history">
      {newestFirst.map((version) => {
        const previous = props.versions.find((entry) => entry.version === version.version - 1);
        const contentChanged = previous !== undefined && previous.text !== version.text && version.op !== "purge";
        const validity = formatValidity(version.validFrom, version.validTo);
        const validityChanged = previous
          ? previous.validFrom !== version.validFrom || previous.validTo !== version.validTo
          : validity !== null;
        const pinChanged = previous ? previous.pinned !== version.pinned : version.pinned;
        const revertible =
          props.canRevert &&
          version.version !== props.currentVersion &&
          version.content !== null &&
          version.text !== props.currentText;
        return (
          <li key={version.version} className="space-y-2 rounded-lg border p-3" data-testid="history-entry">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-semibold">Version {version.version}</span>
              <Badge>{OP_LABELS[version.op]}</Badge>
              {pinChanged ? <Badge data-testid="history-pin">{version.pinned ? "Pinned" : "Unpinned"}</Badge> : null}
              <span className="text-muted-foreground">
                by {formatActor(version.actor, props.ownerId, props.ownerLabel)} · {formatDateTime(version.createdAt)} ·
                from {version.source.type}
              </span>
            </div>
            {version.reason ? <p className="text-sm">Reason: {version.reason}</p> : null}
            {validityChanged ? (
              <p className="text-sm" data-testid="history-validity">
                Held in the world: {validity ?? "no dates"}
              </p>
            ) : null}
            {version.op === "purge" ? (
              <p className="text-muted-foreground text-sm italic">Content erased from every version.</p>
            ) : contentChanged && previous ? (
              <WordDiff before={previous.text} after={version.text} />
            ) : version.op === "create" || version.op === "update" ? (
              <p className="whitespace-pre-wrap break-words rounded-md bg-muted/60 p-2 text-sm">
                {version.text || <span className="italic text-muted-foreground">Erased</span>}
              </p>
            ) : null}
            {version.source.quote ? (
              <p className="text-muted-foreground text-xs">
                Source quote: “<mark className="bg-highlight text-foreground">{version.source.quote}</mark>”
              </p>
            ) : null}
            {revertible ? (
              <RevertButton id={props.memoryId} version={version.version} currentVersion={props.currentVersion} />
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
