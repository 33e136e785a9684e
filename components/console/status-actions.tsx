"use client";

import { ArchiveRestore, Flame, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { changeStatusAction } from "@/app/(console)/memories/actions";
import type { MutationResult } from "@/lib/console/mutations";
import { ConfirmDialog } from "./confirm-dialog";

function failure(result: MutationResult): string | null {
  if (result.ok) return null;
  return result.error.code === "not_found" ? "This memory no longer exists." : result.error.message;
}

/** Delete (soft), restore and purge (erase for good), each behind a typed confirmation. */
export function StatusActions({
  id,
  status,
  purged,
}: {
  id: string;
  status: "active" | "deleted" | "merged";
  purged: boolean;
}) {
  const router = useRouter();
  const run = (op: "delete" | "restore" | "purge") => async (typed: string) => {
    const problem = failure(await changeStatusAction({ id, op, confirm: typed }));
    if (!problem) router.refresh();
    return problem;
  };
  if (purged) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {status === "active" ? (
        <ConfirmDialog
          trigger={
            <>
              <Trash2 className="size-3.5" aria-hidden /> Delete
            </>
          }
          title="Delete this memory?"
          description="It will no longer be recalled or found by search. Its history is kept and you can restore it."
          word="delete"
          confirmLabel="Delete"
          destructive
          onConfirm={run("delete")}
        />
      ) : (
        <ConfirmDialog
          trigger={
            <>
              <ArchiveRestore className="size-3.5" aria-hidden /> Restore
            </>
          }
          title="Restore this memory?"
          description="It will be recalled in chat and found by search again."
          word="restore"
          confirmLabel="Restore"
          onConfirm={run("restore")}
        />
      )}
      <ConfirmDialog
        trigger={
          <>
            <Flame className="size-3.5" aria-hidden /> Purge
          </>
        }
        triggerVariant="destructive"
        title="Purge this memory for good?"
        description="Its content is erased from the memory and from every version in its history. This cannot be undone; only ids, dates and a fingerprint that stops the same fact being re-learned remain."
        word="purge"
        confirmLabel="Purge"
        destructive
        onConfirm={run("purge")}
      />
    </div>
  );
}
