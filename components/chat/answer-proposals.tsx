"use client";

import { Check, Pencil, X } from "lucide-react";
import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { KindContentFields } from "@/components/console/kind-content-fields";
import { RejectForm } from "@/components/console/reject-form";
import { WordDiff } from "@/components/console/word-diff";
import { Button } from "@/components/ui/button";
import { contentFromValues, fieldErrorsOf, fieldValues } from "@/lib/console/kind-fields";
import type { MemoryJson } from "@/lib/memory/contract";
import { decideProposal, type Proposal } from "./thread-proposals";

const OP_LABEL: Record<string, string> = { insert: "Remember", update: "Change", delete: "Forget" };

/**
 * The changes this answer's turn held for review, each decided here as on the Review page (docs/memory-model.md,
 * "Review and rules"): approve, edit and approve, or reject with an optional reason.
 */
export function AnswerProposals({ proposals, onDecided }: { proposals: Proposal[]; onDecided: (p: Proposal) => void }) {
  if (proposals.length === 0) return null;
  const pending = proposals.filter((proposal) => proposal.status === "pending").length;
  return (
    <section className="space-y-2" aria-label="Changes held for your review" data-testid="answer-proposals">
      <p className="text-muted-foreground text-xs">
        {pending > 0
          ? `${pending} ${pending === 1 ? "change waits" : "changes wait"} for your review: nothing is remembered until you approve.`
          : "Reviewed."}
      </p>
      <ul className="space-y-2">
        {[...proposals].reverse().map((proposal) => (
          <ProposalCard key={proposal.id} proposal={proposal} onDecided={onDecided} />
        ))}
      </ul>
    </section>
  );
}

function ProposalCard({ proposal, onDecided }: { proposal: Proposal; onDecided: (p: Proposal) => void }) {
  const id = useId();
  const [mode, setMode] = useState<"view" | "edit" | "reject">("view");
  const kind = proposal.kind ?? "memory";
  const [values, setValues] = useState(() => fieldValues(kind, proposal.content));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // What a refusal said stands now: the memory as it is, when it changed since the proposal.
  const [conflict, setConflict] = useState<MemoryJson | null>(null);
  const current = useCurrentMemory(proposal);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const actionsRef = useRef<HTMLDivElement>(null);
  const editRef = useRef<HTMLFormElement>(null);
  const pending = proposal.status === "pending";

  // Opening the editor puts the cursor in it; leaving a form gives focus back to the buttons it came from.
  useEffect(() => {
    if (mode === "edit") editRef.current?.querySelector<HTMLElement>("input, textarea")?.focus();
  }, [mode]);
  function cancel() {
    setMode("view");
    requestAnimationFrame(() => actionsRef.current?.querySelector<HTMLElement>("button")?.focus());
  }

  async function decide(decision: "approve" | "reject", body: { content?: unknown; reason?: string } = {}) {
    setSending(true);
    const result = await decideProposal(proposal.id, decision, body);
    setSending(false);
    if (result.ok) {
      setError(null);
      setConflict(null);
      setMode("view");
      onDecided(result.proposal);
      // The buttons are gone: keep a keyboard user's place on what became of the proposal.
      requestAnimationFrame(() => statusRef.current?.focus());
      return;
    }
    setError(result.message);
    setFieldErrors(fieldErrorsOf(result.details));
    setConflict(result.memory ?? null);
    if (result.proposal) onDecided(result.proposal);
  }

  function approveEdited() {
    const parsed = contentFromValues(kind, values);
    if (!parsed.ok) return setFieldErrors(parsed.errors);
    setFieldErrors({});
    void decide("approve", { content: parsed.content });
  }

  const stale =
    pending && current && proposal.expectedVersion !== undefined && proposal.expectedVersion !== current.version;
  return (
    <li
      className="space-y-1.5 rounded-lg border bg-card px-3 py-2"
      data-testid="chat-proposal"
      data-status={proposal.status}
      aria-labelledby={`${id}-title`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap items-baseline gap-2">
            <h3 id={`${id}-title`} className="font-medium text-sm">
              {OP_LABEL[proposal.op] ?? proposal.op}
              {kind !== "memory" ? ` (${kind})` : ""}
            </h3>
            <p
              ref={statusRef}
              tabIndex={-1}
              role="status"
              className="text-muted-foreground text-xs outline-none"
              data-testid="chat-proposal-status"
            >
              <StatusLine proposal={proposal} />
            </p>
          </div>
          <ProposalBody proposal={proposal} current={current} />
        </div>
        {pending && mode === "view" ? (
          <div ref={actionsRef} className="flex flex-wrap gap-1.5">
            <Button size="sm" className="h-7" disabled={sending} onClick={() => void decide("approve")}>
              <Check className="size-3.5" aria-hidden /> Approve
            </Button>
            {proposal.op !== "delete" ? (
              <Button size="sm" className="h-7" variant="outline" disabled={sending} onClick={() => setMode("edit")}>
                <Pencil className="size-3.5" aria-hidden /> Edit and approve
              </Button>
            ) : null}
            <Button size="sm" className="h-7" variant="outline" disabled={sending} onClick={() => setMode("reject")}>
              <X className="size-3.5" aria-hidden /> Reject
            </Button>
          </div>
        ) : null}
      </div>
      {stale ? (
        <p className="text-amber-700 text-xs dark:text-amber-400" role="note">
          The memory changed since this was proposed (now version {current.version}
          {current.status === "deleted" ? ", deleted" : ""}); approving it will be refused.
        </p>
      ) : null}
      <p className="text-muted-foreground text-xs" data-testid="chat-proposal-reason">
        Why: {proposal.reason}
      </p>
      {proposal.decisionReason ? (
        <p className="text-muted-foreground text-xs">Your reason: {proposal.decisionReason}</p>
      ) : null}
      {pending && mode === "edit" ? (
        <form
          ref={editRef}
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            approveEdited();
          }}
          onKeyDown={(event) => {
            if (event.key === "Escape") cancel();
          }}
        >
          <p className="font-medium text-xs">Approve as</p>
          <KindContentFields kind={kind} values={values} errors={fieldErrors} onChange={setValues} />
          <div className="flex gap-2">
            <Button size="sm" type="submit" disabled={sending}>
              Approve edited
            </Button>
            <Button size="sm" type="button" variant="ghost" onClick={cancel}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {pending && mode === "reject" ? (
        <RejectForm
          id={id}
          busy={sending}
          onReject={(reason) => void decide("reject", reason ? { reason } : {})}
          onCancel={cancel}
        />
      ) : null}
      {error ? (
        <div role="alert" className="space-y-1 text-destructive text-sm" data-testid="chat-proposal-error">
          <p>{error}</p>
          {conflict ? (
            <p className="text-muted-foreground text-xs" data-testid="chat-proposal-current">
              The memory now ({conflict.status === "deleted" ? "deleted, " : ""}version {conflict.version}):{" "}
              <Link href={`/memories/${conflict.id}`} className="hover:underline">
                {conflict.text}
              </Link>
            </p>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

function StatusLine({ proposal }: { proposal: Proposal }) {
  if (proposal.status === "pending") return <>awaiting your review</>;
  if (proposal.status === "approved") {
    return (
      <>
        approved
        {proposal.memoryId && proposal.op !== "delete" ? (
          <>
            {" · "}
            <Link href={`/memories/${proposal.memoryId}`} className="underline-offset-2 hover:underline">
              the memory
            </Link>
          </>
        ) : null}
      </>
    );
  }
  return <>{proposal.status}</>;
}

function ProposalBody({ proposal, current }: { proposal: Proposal; current: MemoryJson | null }) {
  const text = proposal.text ?? "";
  if (proposal.op === "update" && current && proposal.status === "pending") {
    return <WordDiff before={current.text} after={text} />;
  }
  if (proposal.op === "delete") {
    return (
      <p className="text-sm line-through decoration-destructive">
        <span className="sr-only">to forget: </span>
        {text}
      </p>
    );
  }
  return <p className="text-sm">{text}</p>;
}

/** The memory a pending change or deletion would touch, as it stands: for the diff and the staleness check. */
function useCurrentMemory(proposal: Proposal): MemoryJson | null {
  const [memory, setMemory] = useState<MemoryJson | null>(null);
  const wanted = proposal.status === "pending" && proposal.op !== "insert" ? proposal.memoryId : undefined;
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    void fetch(`/api/v1/memories/${encodeURIComponent(wanted)}`, { cache: "no-store" })
      .then((response) => (response.ok ? response.json() : null))
      .then((body: { memory?: MemoryJson } | null) => {
        if (live && body?.memory) setMemory(body.memory);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [wanted]);
  return memory;
}
