import { MessageSquareQuote } from "lucide-react";
import Link from "next/link";
import { highlightQuote, type SourceMessage } from "@/lib/console/source";
import type { MemorySource } from "@/lib/memory/store";

export const messageHref = (threadId: string, messageId: string) => `/chat/${threadId}#message-${messageId}`;

/** Where the current content came from: the original message with the quoted span marked, and a link to it. */
export function SourcePanel({
  source,
  message,
  linkToChat,
}: {
  source: MemorySource;
  message: SourceMessage | null;
  linkToChat: boolean;
}) {
  const segments = message && source.quote ? highlightQuote(message.text, source.quote) : null;
  return (
    <div className="space-y-3 text-sm" data-testid="memory-source">
      <p>
        Written from <strong>{source.type}</strong>
        {source.runId ? (
          <>
            {" "}
            by extraction run <span className="font-mono text-xs">{source.runId}</span>
          </>
        ) : null}
        .
      </p>
      {segments && message ? (
        <figure className="space-y-2">
          <blockquote
            className="whitespace-pre-wrap rounded-md border-l-4 border-primary/50 bg-muted/60 p-3"
            data-testid="source-message"
          >
            {segments.map((segment, index) =>
              segment.marked ? (
                <mark key={index} className="rounded bg-highlight px-0.5 text-foreground">
                  {segment.text}
                </mark>
              ) : (
                <span key={index}>{segment.text}</span>
              ),
            )}
          </blockquote>
          <figcaption className="text-muted-foreground text-xs">
            The {message.role}'s message in “{message.threadTitle ?? "Untitled chat"}”, with the quoted span marked.
          </figcaption>
        </figure>
      ) : source.quote ? (
        <blockquote className="rounded-md border-l-4 border-primary/50 bg-muted/60 p-3" data-testid="source-message">
          <mark className="rounded bg-highlight px-0.5 text-foreground">{source.quote}</mark>
          <p className="mt-2 text-muted-foreground text-xs">
            The original message is no longer available; this is the quote kept with the memory.
          </p>
        </blockquote>
      ) : source.threadDeleted ? (
        <p className="text-muted-foreground">The chat this came from was deleted, and its words with it.</p>
      ) : (
        <p className="text-muted-foreground">No quote was recorded for this write.</p>
      )}
      {linkToChat && source.threadId && source.messageId && message ? (
        <Link
          href={messageHref(source.threadId, source.messageId)}
          className="inline-flex items-center gap-1.5 text-primary underline-offset-4 hover:underline"
        >
          <MessageSquareQuote className="size-4" aria-hidden /> Open the message in its chat
        </Link>
      ) : null}
    </div>
  );
}
