"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ChatMessage } from "@/lib/chat/types";
import type { MemoryJson, ProposalJson } from "@/lib/memory/contract";

export type Proposal = ProposalJson;

const POLL_MS = 2_500;
const PAGE = 200;
/** A chat with more proposals than this is reviewed on the Review page; the chat shows the newest. */
const MAX_PAGES = 5;

/** A proposal the chat model made during a turn (background runs carry a runId and keep their link to Review). */
export const isTurnProposal = (proposal: Proposal) => !proposal.runId && Boolean(proposal.messageId);

/**
 * The chat's proposals, fetched once `key` says there are some (it changes when a turn proposes another), and again
 * every few seconds while one made in a turn is pending: a decision taken on the Review page, in another tab, shows
 * here without a reload. `put` lays a decision's answer over the list at once.
 */
export function useThreadProposals(threadId: string, key: string) {
  const [proposals, setProposals] = useState<Proposal[]>([]);
  // A list that was asked for before a decision must not overwrite what the decision answered.
  const generation = useRef(0);

  const load = useCallback(async () => {
    const asked = ++generation.current;
    const found: Proposal[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const params = new URLSearchParams({ threadId, limit: String(PAGE), ...(cursor ? { cursor } : {}) });
      const response = await fetch(`/api/v1/proposals?${params}`, { cache: "no-store" }).catch(() => null);
      if (!response?.ok) return;
      const body = (await response.json()) as { proposals: Proposal[]; nextCursor: string | null };
      found.push(...body.proposals);
      cursor = body.nextCursor;
      if (!cursor) break;
    }
    if (asked === generation.current) setProposals(found);
  }, [threadId]);

  useEffect(() => {
    if (key) void load();
  }, [key, load]);

  const waiting = proposals.some((proposal) => proposal.status === "pending" && isTurnProposal(proposal));
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void load(), POLL_MS);
    const onFocus = () => void load();
    window.addEventListener("focus", onFocus);
    return () => {
      clearInterval(timer);
      window.removeEventListener("focus", onFocus);
    };
  }, [waiting, load]);

  const put = useCallback((proposal: Proposal) => {
    generation.current++;
    setProposals((previous) => previous.map((entry) => (entry.id === proposal.id ? proposal : entry)));
  }, []);

  return { proposals, reload: load, put };
}

/**
 * The chat's proposals, by the answer whose turn made them: a turn's proposals cite the user's message it answered
 * (docs/memory-model.md, "Review and rules"). Fetched once a tool result says the chat proposed something.
 */
export function useTurnReview(threadId: string, messages: ChatMessage[]) {
  const proposed = useMemo(
    () =>
      messages
        .flatMap((message) => message.parts)
        .flatMap((part) =>
          part.type === "tool-manage_memory" && part.state === "output-available" && part.output.action === "proposed"
            ? [part.output.proposalId]
            : [],
        )
        .join(" "),
    [messages],
  );
  const { proposals, reload, put } = useThreadProposals(threadId, proposed);
  const byId = useMemo(() => new Map(proposals.map((proposal) => [proposal.id, proposal])), [proposals]);
  const byQuestion = useMemo(() => {
    const grouped = new Map<string, Proposal[]>();
    for (const proposal of proposals.filter(isTurnProposal)) {
      grouped.set(proposal.messageId!, [...(grouped.get(proposal.messageId!) ?? []), proposal]);
    }
    return grouped;
  }, [proposals]);
  const questions = useMemo(() => {
    let question: string | undefined;
    return messages.map((message) => {
      if (message.role === "user") question = message.id;
      return message.role === "assistant" ? question : undefined;
    });
  }, [messages]);
  const ofAnswer = (index: number) => {
    const question = questions[index];
    return (question && byQuestion.get(question)) || NONE;
  };
  return { ofAnswer, byId, put, reload };
}

const NONE: Proposal[] = [];

/** What a decision answered: the proposal as it now stands, or why not, with what stands now (a 409's body). */
export type Decision =
  | { ok: true; proposal: Proposal; memory?: MemoryJson }
  | {
      ok: false;
      status: number;
      message: string;
      details: Array<{ path: Array<string | number>; message: string }>;
      proposal?: Proposal;
      memory?: MemoryJson;
    };

/** Approves (optionally as edited: the content for the proposal's kind) or rejects (optionally with a reason). */
export async function decideProposal(
  id: string,
  decision: "approve" | "reject",
  body: { content?: unknown; reason?: string } = {},
): Promise<Decision> {
  const response = await fetch(`/api/v1/proposals/${encodeURIComponent(id)}/${decision}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }).catch(() => null);
  if (!response) return { ok: false, status: 0, message: "Not sent: the server could not be reached.", details: [] };
  const json = (await response.json().catch(() => null)) as {
    proposal?: Proposal;
    memory?: MemoryJson;
    error?: { message?: string; details?: Array<{ path: Array<string | number>; message: string }> };
  } | null;
  if (response.ok && json?.proposal) return { ok: true, proposal: json.proposal, memory: json.memory };
  return {
    ok: false,
    status: response.status,
    message:
      json?.error?.message ?? `Not ${decision === "approve" ? "approved" : "rejected"} (HTTP ${response.status}).`,
    details: json?.error?.details ?? [],
    proposal: json?.proposal,
    memory: json?.memory,
  };
}
