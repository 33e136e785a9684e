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
 * The turn's stream as the UI should see it: a failure that breaks the stream (a connection reset mid-answer, a
 * provider that went silent) becomes an error part, so the answer ends with the reason rather than a broken response;
 * a turn that wrote no text, or that the step limit cut off while it was still calling tools, gets the
 * silentEndingNotice as its text.
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
      let next: ReadableStreamReadResult<TextStreamPart<TOOLS>>;
      try {
        next = await reader.read();
      } catch (error) {
        options.onBroken?.(error);
        controller.enqueue({ type: "error", error });
        controller.close();
        return;
      }
      if (next.done) {
        controller.close();
        return;
      }
      const part = next.value;
      if (part.type === "error") failed = true;
      if (part.type === "text-delta" && part.text.trim()) wroteText = true;
      // A turn that ends on tool calls is one the step limit stopped: the model meant to go on.
      if (part.type === "finish" && !failed && (!wroteText || part.finishReason === "tool-calls")) {
        const id = "silent-ending";
        controller.enqueue({ type: "text-start", id });
        controller.enqueue({ type: "text-delta", id, text: silentEndingNotice(part.finishReason, options.maxSteps) });
        controller.enqueue({ type: "text-end", id });
      }
      controller.enqueue(part);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
