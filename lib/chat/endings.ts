import type { FinishReason, TextStreamPart, ToolSet } from "ai";

/**
 * What the user is told, as the answer's text, when the model ended its turn without writing one: an empty answer
 * (or a row of tool chips) reads as if the app had broken, or as if the model had nothing to say.
 */
export function silentEndingNotice(reason: FinishReason, maxSteps: number): string {
  switch (reason) {
    case "content-filter":
      return "The model stopped without an answer: the provider's content filter blocked it.";
    case "tool-calls":
      return `I ran out of steps before answering: the memory tools used all ${maxSteps} steps this turn allows. Ask again to let me finish.`;
    case "length":
      return "The model stopped without an answer: it reached its output limit before writing one.";
    default:
      return "The model stopped without an answer. Try asking again.";
  }
}

/**
 * What the user is told, after the words that arrived, when the provider stopped the answer part-way: otherwise the
 * cut-off text reads as the whole answer.
 */
export function cutShortNotice(reason: "content-filter" | "length"): string {
  return reason === "content-filter"
    ? "The answer stops here: the provider's content filter blocked the rest."
    : "The answer stops here: the model reached its output limit.";
}

/**
 * The turn's stream as the UI should see it: a failure that breaks the stream (a connection reset mid-answer, a
 * provider that went silent) becomes an error part, so the answer ends with the reason rather than a broken response;
 * an error the provider reports inside the stream ends the answer the same way. A turn that wrote no text, or that
 * the step limit cut off while it was still calling tools, gets the silentEndingNotice as its text; one the provider
 * stopped part-way (content filter, output limit) gets the cutShortNotice after its text.
 */
export function answerStream<TOOLS extends ToolSet>(
  stream: ReadableStream<TextStreamPart<TOOLS>>,
  options: { maxSteps: number; onBroken?: (error: unknown) => void },
): ReadableStream<TextStreamPart<TOOLS>> {
  const reader = stream.getReader();
  let wroteText = false;
  let failed = false;
  return new ReadableStream<TextStreamPart<TOOLS>>({
    async pull(controller) {
      for (;;) {
        let next: ReadableStreamReadResult<TextStreamPart<TOOLS>>;
        try {
          next = await reader.read();
        } catch (error) {
          options.onBroken?.(error);
          if (!failed) controller.enqueue({ type: "error", error });
          controller.close();
          return;
        }
        if (next.done) {
          controller.close();
          return;
        }
        const part = next.value;
        // After a reported error the SDK still ends the step and the turn with finish parts, and a `finish` would
        // mark the answer complete (stored whole, handed to extraction): nothing after the error is passed on, and
        // the stream ends when the SDK's does, as a broken one ends after its error part.
        if (failed) continue;
        if (part.type === "error") failed = true;
        if (part.type === "text-delta" && part.text.trim()) wroteText = true;
        if (part.type === "finish") {
          const notice = endingNotice(part.finishReason, wroteText, options.maxSteps);
          if (notice) {
            controller.enqueue({ type: "text-start", id: notice.id });
            controller.enqueue({ type: "text-delta", id: notice.id, text: notice.text });
            controller.enqueue({ type: "text-end", id: notice.id });
          }
        }
        controller.enqueue(part);
        return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function endingNotice(reason: FinishReason, wroteText: boolean, maxSteps: number) {
  // A turn that ends on tool calls is one the step limit stopped: the model meant to go on.
  if (!wroteText || reason === "tool-calls") {
    return { id: "silent-ending", text: silentEndingNotice(reason, maxSteps) };
  }
  if (reason === "content-filter" || reason === "length") return { id: "cut-short", text: cutShortNotice(reason) };
  return undefined;
}
