"use client";

import { ThumbsDown, ThumbsUp } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

type Rating = "up" | "down";
const COMMENT_CHARS = 2_000;

/** Thumbs up or down on one answer, with an optional comment; the optimizer learns from what is sent. */
export function AnswerFeedback({ messageId }: { messageId: string }) {
  const [rating, setRating] = useState<Rating | null>(null);
  const [comment, setComment] = useState("");
  const [state, setState] = useState<"idle" | "sending" | "sent">("idle");
  const [error, setError] = useState<string | null>(null);

  async function send() {
    if (!rating) return;
    setState("sending");
    setError(null);
    try {
      const response = await fetch("/api/v1/feedback", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ messageId, rating, ...(comment.trim() ? { comment: comment.trim() } : {}) }),
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(body?.error?.message ?? `Feedback not sent (HTTP ${response.status}).`);
      }
      setState("sent");
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Feedback not sent.");
      setState("idle");
    }
  }

  if (state === "sent") {
    return (
      <p className="text-muted-foreground text-xs" role="status" data-testid="feedback-sent">
        Thanks: feedback sent ({rating === "up" ? "helpful" : "not helpful"}).
      </p>
    );
  }
  const thumb = (value: Rating, label: string, Icon: typeof ThumbsUp) => (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      className="size-7"
      aria-label={label}
      aria-pressed={rating === value}
      onClick={() => setRating(rating === value ? null : value)}
    >
      <Icon className="size-3.5" aria-hidden />
    </Button>
  );
  return (
    <div className="space-y-1" data-testid="answer-feedback">
      <div className="flex items-center gap-1">
        {thumb("up", "Good answer", ThumbsUp)}
        {thumb("down", "Bad answer", ThumbsDown)}
      </div>
      {rating ? (
        <form
          className="flex items-start gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <label className="sr-only" htmlFor={`feedback-${messageId}`}>
            Comment on this answer (optional)
          </label>
          <textarea
            id={`feedback-${messageId}`}
            className="min-h-9 flex-1 rounded-md border bg-background px-2 py-1 text-xs"
            placeholder="What should change? (optional)"
            maxLength={COMMENT_CHARS}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
          <Button type="submit" size="sm" disabled={state === "sending"}>
            Send feedback
          </Button>
        </form>
      ) : null}
      {error ? (
        <p className="text-destructive text-xs" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
