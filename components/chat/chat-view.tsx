"use client";

import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { ArrowUp, RotateCcw, Square } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { ChatMessage } from "@/lib/chat/types";
import { AnswerFeedback } from "./answer-feedback";
import { AnswerProposals } from "./answer-proposals";
import { ExtractionStatus } from "./extraction-status";
import { MemoriesUsed } from "./memories-used";
import { type Proposal, useTurnReview } from "./thread-proposals";
import { ToolChip } from "./tool-chip";
import { showsUndo, UndoTurn, writtenBy } from "./undo-turn";

interface ChatViewProps {
  threadId: string;
  initialMessages: ChatMessage[];
  models: string[];
  defaultModel: string;
}

export function ChatView({ threadId, initialMessages, models, defaultModel }: ChatViewProps) {
  const router = useRouter();
  const [input, setInput] = useState("");
  const [model, setModel] = useState(defaultModel);
  const modelRef = useRef(model);
  modelRef.current = model;
  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatMessage>({
        api: "/api/chat",
        // The server holds the history; send only the new message and what to do with it.
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => ({
          body: {
            id,
            trigger,
            model: modelRef.current,
            ...(trigger === "submit-message" ? { message: messages.at(-1) } : { messageId }),
          },
        }),
      }),
    [],
  );
  const { messages, sendMessage, status, stop, regenerate, error } = useChat<ChatMessage>({
    id: threadId,
    messages: initialMessages,
    transport,
    onFinish: () => router.refresh(),
  });
  const busy = status === "submitted" || status === "streaming";
  const last = messages.at(-1);
  // An answer that broke off is stored marked incomplete: after a reload it offers the same retry as a live error.
  const brokenOff = last?.role === "assistant" && last.metadata?.incomplete === true;
  // A turn the server refused (a quota, a rate limit) stored nothing: there is nothing to retry from.
  const refusal = error ? refusalOf(error) : undefined;
  const failure = error
    ? error.message || "The model could not answer."
    : status === "ready" && brokenOff
      ? (last.metadata?.failure ?? "The answer broke off.")
      : undefined;
  const endRef = useRef<HTMLDivElement>(null);
  const review = useTurnReview(threadId, messages);

  useEffect(() => {
    if (messages.length > 0) endRef.current?.scrollIntoView({ block: "end" });
  }, [messages]);

  function submit(event?: React.FormEvent) {
    event?.preventDefault();
    const text = input.trim();
    if (!text || busy) return;
    if (messages.length === 0) window.history.replaceState(null, "", `/chat/${threadId}`);
    void sendMessage({ text });
    setInput("");
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex-1 space-y-6 pb-4" aria-live="polite">
        {messages.length === 0 ? (
          <div className="py-16 text-center text-muted-foreground text-sm">
            <p className="font-medium text-base text-foreground">What should I know about you?</p>
            <p className="mt-1">Try "Remember that I prefer dark mode", then ask "What are my display preferences?"</p>
          </div>
        ) : null}
        {messages.map((message, index) => (
          <MessageView
            key={message.id}
            message={message}
            proposals={review.ofAnswer(index)}
            proposalById={review.byId}
            onDecided={review.put}
            // A turn still being written has not finished its writes: nothing to undo yet.
            onUndone={busy && message === last ? undefined : review.reload}
          />
        ))}
        {status === "submitted" ? <p className="text-muted-foreground text-sm">Thinking…</p> : null}
        {status === "ready" && last?.role === "assistant" && !brokenOff ? (
          <ExtractionStatus key={messages.length} threadId={threadId} messageCount={messages.length} />
        ) : null}
        {refusal !== undefined ? (
          <Alert tone="error">{refusal}</Alert>
        ) : failure !== undefined ? (
          <Alert tone="error" className="flex items-center justify-between gap-3">
            <span>{failure} Your message is saved.</span>
            <Button size="sm" variant="outline" onClick={() => regenerate()}>
              <RotateCcw className="size-3.5" aria-hidden /> Retry
            </Button>
          </Alert>
        ) : null}
        <div ref={endRef} />
      </div>
      <form onSubmit={submit} className="sticky bottom-0 border-t bg-background pt-3 pb-4">
        <div className="flex items-end gap-2 rounded-xl border bg-card p-2 shadow-sm focus-within:ring-2 focus-within:ring-ring">
          <label htmlFor="chat-input" className="sr-only">
            Message
          </label>
          <textarea
            id="chat-input"
            value={input}
            onChange={(event) => setInput(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
            }}
            placeholder="Message…"
            rows={1}
            maxLength={20_000}
            className="max-h-48 min-h-9 flex-1 resize-none bg-transparent px-2 py-1.5 text-sm outline-none"
          />
          {busy ? (
            <Button type="button" size="icon" variant="outline" onClick={() => stop()} aria-label="Stop">
              <Square className="size-4" aria-hidden />
            </Button>
          ) : (
            <Button type="submit" size="icon" aria-label="Send" disabled={!input.trim()}>
              <ArrowUp className="size-4" aria-hidden />
            </Button>
          )}
        </div>
        <div className="mt-2 flex items-center gap-2 text-muted-foreground text-xs">
          <label htmlFor="chat-model">Model</label>
          <select
            id="chat-model"
            value={model}
            onChange={(event) => setModel(event.target.value)}
            className="rounded border bg-background px-1.5 py-0.5"
          >
            {models.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </div>
      </form>
    </div>
  );
}

function MessageView({
  message,
  proposals,
  proposalById,
  onDecided,
  onUndone,
}: {
  message: ChatMessage;
  proposals: Proposal[];
  proposalById: ReadonlyMap<string, Proposal>;
  onDecided: (proposal: Proposal) => void;
  /** Absent while the answer is still being written. */
  onUndone?: () => void;
}) {
  if (message.role === "user") {
    return (
      <div className="flex justify-end" data-role="user" id={`message-${message.id}`}>
        <div className="max-w-[85%] whitespace-pre-wrap rounded-2xl bg-primary px-4 py-2 text-primary-foreground text-sm">
          {message.parts.map((part) => (part.type === "text" ? part.text : "")).join("")}
        </div>
      </div>
    );
  }
  const turn = writtenBy(message);
  return (
    <div className="max-w-[85%] space-y-2 text-sm" data-role="assistant" id={`message-${message.id}`}>
      {message.parts.map((part, index) => {
        if (part.type === "text") {
          return (
            <p key={index} className="whitespace-pre-wrap leading-relaxed">
              {part.text}
            </p>
          );
        }
        if (part.type === "tool-manage_memory" || part.type === "tool-search_memory") {
          const proposalId =
            part.type === "tool-manage_memory" && part.state === "output-available" && part.output.action === "proposed"
              ? part.output.proposalId
              : undefined;
          return (
            <div key={index}>
              <ToolChip part={part} proposal={proposalId ? proposalById.get(proposalId) : undefined} />
            </div>
          );
        }
        return null;
      })}
      <AnswerProposals proposals={proposals} onDecided={onDecided} />
      {onUndone &&
      showsUndo(
        message,
        turn.changed,
        proposals.some((proposal) => proposal.status === "pending"),
      ) ? (
        <UndoTurn
          answerId={message.id}
          undoneAt={message.metadata?.memoryRevertedAt}
          written={turn.written}
          onUndone={onUndone}
        />
      ) : null}
      <MemoriesUsed message={message} />
      {message.metadata?.model && !message.metadata.incomplete ? <AnswerFeedback messageId={message.id} /> : null}
    </div>
  );
}

/**
 * The message of a request the chat route refused before the turn began: the transport makes its JSON error body
 * (`{ "error": { "code", "message" } }`) the error's message. Undefined for a failure during the turn.
 */
function refusalOf(error: Error): string | undefined {
  try {
    const body = JSON.parse(error.message) as { error?: { message?: unknown } } | null;
    return typeof body?.error?.message === "string" ? body.error.message : undefined;
  } catch {
    return undefined;
  }
}
