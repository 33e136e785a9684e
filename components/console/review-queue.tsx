"use client";

import { Check, Pencil, X } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { decideProposalAction, decideProposalsAction } from "@/app/(console)/memories/review/actions";
import { Button } from "@/components/ui/button";
import { contentFromValues, fieldValues } from "@/lib/console/kind-fields";
import type { ReviewItem } from "@/lib/console/review";
import { formatDateTime, formatValidity } from "./format";
import { FieldInput, KindContentFields } from "./kind-content-fields";
import { RejectForm } from "./reject-form";
import { WordDiff } from "./word-diff";

const OP_LABEL = {
  insert: "Remember",
  update: "Change",
  delete: "Forget",
  instructions: "Change your instructions",
  merge: "Merge",
} as const;

/**
 * The pending proposals, each with its source quote and (for changes) a diff against the memory as it stands, and
 * approve / approve as edited / reject. Everything is a native control: Tab moves between them, Space ticks a box,
 * Enter submits; ticked proposals can be approved or rejected together.
 */
export function ReviewQueue({ items, readOnly }: { items: ReviewItem[]; readOnly: boolean }) {
  const router = useRouter();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const pendingItems = items.filter((item) => item.status === "pending");

  const bulk = (decision: "approve" | "reject") =>
    startTransition(async () => {
      const result = await decideProposalsAction({ ids: [...selected], decision });
      if (!result.ok) setMessage(result.error.message);
      else {
        const skipped = result.skipped.map((entry) => entry.message).join(" ");
        setMessage(
          `${result.decided} ${decision === "approve" ? "approved" : "rejected"}.${skipped ? ` Skipped: ${skipped}` : ""}`,
        );
        setSelected(new Set());
        router.refresh();
      }
    });

  return (
    <div className="space-y-3">
      {!readOnly && pendingItems.length > 0 && (
        <fieldset className="flex flex-wrap items-center gap-2 rounded-md border p-2" aria-label="Bulk review">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={selected.size === pendingItems.length}
              onChange={(event) =>
                setSelected(event.target.checked ? new Set(pendingItems.map((item) => item.id)) : new Set())
              }
            />
            Select all ({pendingItems.length})
          </label>
          <Button size="sm" disabled={selected.size === 0 || pending} onClick={() => bulk("approve")}>
            <Check className="size-3.5" aria-hidden /> Approve selected
          </Button>
          <Button size="sm" variant="outline" disabled={selected.size === 0 || pending} onClick={() => bulk("reject")}>
            <X className="size-3.5" aria-hidden /> Reject selected
          </Button>
        </fieldset>
      )}
      <p role="status" className="text-sm" data-testid="review-message">
        {message}
      </p>
      <ul className="space-y-3">
        {items.map((item) => (
          <ProposalCard
            key={item.id}
            item={item}
            readOnly={readOnly}
            selected={selected.has(item.id)}
            onSelect={(on) =>
              setSelected((previous) => {
                const next = new Set(previous);
                if (on) next.add(item.id);
                else next.delete(item.id);
                return next;
              })
            }
          />
        ))}
      </ul>
    </div>
  );
}

function ProposalCard({
  item,
  readOnly,
  selected,
  onSelect,
}: {
  item: ReviewItem;
  readOnly: boolean;
  selected: boolean;
  onSelect: (on: boolean) => void;
}) {
  const router = useRouter();
  const id = useId();
  const [mode, setMode] = useState<"view" | "edit" | "reject">("view");
  // Instructions are one text; a memory's content is edited field by field for its kind, as on the memory page.
  const kind = item.op === "instructions" ? null : (item.kind ?? "memory");
  // A merge of memories is edited as the wording the one that stands takes (its text, as proposed).
  const [values, setValues] = useState(() =>
    kind
      ? fieldValues(kind, item.op === "merge" ? { content: item.text } : item.content)
      : { text: typeof item.content === "string" ? item.content : item.text },
  );
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const approveEdited = () => {
    if (!kind) return decide({ decision: "approve", content: values.text ?? "" });
    const parsed = contentFromValues(kind, values);
    if (!parsed.ok) return setFieldErrors(parsed.errors);
    setFieldErrors({});
    decide({ decision: "approve", content: parsed.content });
  };
  const decide = (input: { decision: "approve" | "reject"; content?: unknown; reason?: string }) =>
    startTransition(async () => {
      const result = await decideProposalAction({ id: item.id, ...input });
      if (result.ok) {
        setError(null);
        router.refresh();
      } else setError(result.error.message);
    });
  const canDecide = !readOnly && item.status === "pending";

  return (
    <li className="space-y-2 rounded-lg border p-3" data-testid="proposal" aria-labelledby={`${id}-title`}>
      <div className="flex flex-wrap items-center gap-2">
        {canDecide && (
          <input
            type="checkbox"
            aria-label={`Select: ${OP_LABEL[item.op]} ${item.text}`}
            checked={selected}
            onChange={(event) => onSelect(event.target.checked)}
          />
        )}
        <h2 id={`${id}-title`} className="font-medium text-sm">
          {OP_LABEL[item.op]}
          {item.kind && item.kind !== "memory" ? ` (${item.kind})` : ""}
        </h2>
        <span className="text-muted-foreground text-xs">
          {formatDateTime(item.createdAt)} · by {item.actor}
          {item.status !== "pending" ? ` · ${item.status}` : ""}
        </span>
      </div>
      {item.op === "instructions" ? (
        <WordDiff before={item.instructions?.text ?? ""} after={item.text} />
      ) : (item.op === "update" || (item.op === "merge" && item.current?.text !== item.text)) && item.current ? (
        <WordDiff before={item.current.text} after={item.text} />
      ) : item.op === "delete" ? (
        <p className="rounded-md bg-muted/60 p-2 text-sm line-through decoration-destructive">
          <span className="sr-only">to forget: </span>
          {item.current?.text ?? item.text}
        </p>
      ) : (
        <p className="rounded-md bg-muted/60 p-2 text-sm">{item.text}</p>
      )}
      {(item.validFrom || item.validTo) && (
        <p className="text-muted-foreground text-xs" data-testid="proposal-dates">
          {item.op === "update" && item.validFrom
            ? `Changed in the world ${formatValidity(item.validFrom, null)}: approving keeps the old memory as history, closed then.`
            : `Holds ${formatValidity(item.validFrom, item.validTo)}`}
        </p>
      )}
      {item.instructions?.stale && (
        <p className="text-amber-700 text-xs dark:text-amber-400" role="note">
          Your instructions changed since this was proposed (now version {item.instructions.version}); approving it will
          be refused.
        </p>
      )}
      {item.current?.stale && (
        <p className="text-amber-700 text-xs dark:text-amber-400" role="note">
          The memory changed since this was proposed (now version {item.current.version}
          {item.current.status === "deleted" ? ", deleted" : ""}); approving it will be refused.
        </p>
      )}
      {item.quote && (
        <blockquote className="border-l-2 pl-2 text-muted-foreground text-sm">
          <span className="sr-only">Source: </span>“{item.quote}”
        </blockquote>
      )}
      <p className="text-muted-foreground text-xs">
        Why: {item.reason}
        {item.threadId && (
          <>
            {" · "}
            <Link href={`/chat/${encodeURIComponent(item.threadId)}`} className="underline-offset-2 hover:underline">
              open the chat
            </Link>
          </>
        )}
        {item.current && (
          <>
            {" · "}
            <Link href={`/memories/${item.current.id}`} className="underline-offset-2 hover:underline">
              the memory
            </Link>
          </>
        )}
      </p>
      {item.decisionReason && <p className="text-muted-foreground text-xs">Your reason: {item.decisionReason}</p>}
      {canDecide && mode === "view" && (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" disabled={pending} onClick={() => decide({ decision: "approve" })}>
            <Check className="size-3.5" aria-hidden /> Approve
          </Button>
          {item.op !== "delete" && (item.op !== "merge" || kind === "memory") && (
            <Button size="sm" variant="outline" disabled={pending} onClick={() => setMode("edit")}>
              <Pencil className="size-3.5" aria-hidden /> Edit and approve
            </Button>
          )}
          <Button size="sm" variant="outline" disabled={pending} onClick={() => setMode("reject")}>
            <X className="size-3.5" aria-hidden /> Reject
          </Button>
        </div>
      )}
      {canDecide && mode === "edit" && (
        <form
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            approveEdited();
          }}
        >
          <p className="font-medium text-xs">Approve as</p>
          {kind ? (
            <KindContentFields kind={kind} values={values} errors={fieldErrors} onChange={setValues} />
          ) : (
            <FieldInput
              label="Instructions"
              multiline
              value={values.text ?? ""}
              onChange={(text) => setValues({ text })}
            />
          )}
          <div className="flex gap-2">
            <Button size="sm" type="submit" disabled={pending}>
              Approve edited
            </Button>
            <Button size="sm" type="button" variant="ghost" onClick={() => setMode("view")}>
              Cancel
            </Button>
          </div>
        </form>
      )}
      {canDecide && mode === "reject" && (
        <RejectForm
          id={id}
          busy={pending}
          onReject={(reason) => decide({ decision: "reject", reason })}
          onCancel={() => setMode("view")}
        />
      )}
      {error && (
        <p role="alert" className="text-destructive text-sm">
          {error}
        </p>
      )}
    </li>
  );
}
