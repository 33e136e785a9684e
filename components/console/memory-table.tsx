"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { bulkStatusAction } from "@/app/(console)/memories/actions";
import type { MemoryJson } from "@/lib/memory/contract";
import { Badge, PinnedBadge, StatusBadge, ValidityBadge } from "./badges";
import { ConfirmDialog } from "./confirm-dialog";
import { formatDateTime, formatValidity } from "./format";
import { PinButton } from "./pin-button";

export interface MemoryRow extends MemoryJson {
  purged: boolean;
  /** Its validTo has passed: the fact no longer holds. */
  superseded: boolean;
  score?: number;
}

/** The list with per-row selection and bulk delete/restore (hidden when the view is read-only). */
export function MemoryTable({ rows, readOnly, asUserId }: { rows: MemoryRow[]; readOnly: boolean; asUserId?: string }) {
  const router = useRouter();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState("");
  const visible = new Set(rows.map((row) => row.id));
  const chosen = [...selected].filter((id) => visible.has(id));
  const allChosen = rows.length > 0 && chosen.length === rows.length;

  function toggle(id: string, on: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  const bulk = (op: "delete" | "restore") => async () => {
    const result = await bulkStatusAction({ ids: chosen, op });
    if (!result.ok) return result.error.message;
    setSelected(new Set());
    setNotice(
      `${op === "delete" ? "Deleted" : "Restored"} ${result.changed} ${result.changed === 1 ? "memory" : "memories"}` +
        (result.skipped ? `; ${result.skipped} skipped.` : "."),
    );
    router.refresh();
    return null;
  };

  const href = (id: string) => (asUserId ? `/memories/${id}?as=${asUserId}` : `/memories/${id}`);

  return (
    <div className="space-y-3">
      {readOnly ? null : (
        <div className="flex flex-wrap items-center gap-2" aria-label="Bulk actions" role="toolbar">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={allChosen}
              onChange={(event) => setSelected(event.target.checked ? new Set(visible) : new Set())}
            />
            Select all on this page
          </label>
          <span className="text-muted-foreground text-sm" aria-live="polite">
            {chosen.length} selected
          </span>
          <ConfirmDialog
            trigger="Delete selected"
            triggerDisabled={chosen.length === 0}
            title={`Delete ${chosen.length} ${chosen.length === 1 ? "memory" : "memories"}?`}
            description="Deleted memories are no longer recalled. You can restore them later."
            word="delete"
            confirmLabel="Delete"
            destructive
            onConfirm={bulk("delete")}
          />
          <ConfirmDialog
            trigger="Restore selected"
            triggerDisabled={chosen.length === 0}
            title={`Restore ${chosen.length} ${chosen.length === 1 ? "memory" : "memories"}?`}
            description="Restored memories are recalled in chat again."
            word="restore"
            confirmLabel="Restore"
            onConfirm={bulk("restore")}
          />
          <span role="status" className="text-sm">
            {notice}
          </span>
        </div>
      )}
      <ul className="divide-y rounded-xl border bg-card" data-testid="memory-list">
        {rows.map((row) => (
          <li key={row.id} className="flex items-start gap-3 p-3 sm:p-4" data-testid="memory-row">
            {readOnly ? null : (
              <input
                type="checkbox"
                className="mt-1 size-4 shrink-0 accent-primary"
                aria-label={`Select: ${row.text || "purged memory"}`}
                checked={selected.has(row.id)}
                onChange={(event) => toggle(row.id, event.target.checked)}
              />
            )}
            <div className="min-w-0 flex-1 space-y-1">
              <Link href={href(row.id)} className="line-clamp-2 break-words font-medium hover:underline">
                {row.purged ? <span className="text-muted-foreground italic">Purged memory</span> : row.text}
              </Link>
              <div className="flex flex-wrap items-center gap-1.5 text-muted-foreground text-xs">
                <Badge>{row.kind}</Badge>
                <StatusBadge status={row.status} purged={row.purged} />
                {row.pinned ? <PinnedBadge /> : null}
                <Validity row={row} />
                <span>from {row.source.type}</span>
                {row.namespace.length ? <span className="font-mono">{row.namespace.join(".")}</span> : null}
                <span>· updated {formatDateTime(row.updatedAt)}</span>
                {row.score !== undefined ? <span>· score {row.score.toFixed(3)}</span> : null}
              </div>
            </div>
            {readOnly || row.status !== "active" ? null : <PinButton id={row.id} pinned={row.pinned} compact />}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Validity({ row }: { row: MemoryRow }) {
  const label = formatValidity(row.validFrom, row.validTo);
  return label ? <ValidityBadge label={label} superseded={row.superseded} /> : null;
}
