import { parseJsonEventStream, readUIMessageStream, type UIMessageChunk, uiMessageChunkSchema } from "ai";
import type { ChatMessage } from "@/lib/chat/types";

/**
 * Reads a chat response (the UI message stream over SSE) to its end: the assistant message the client would show.
 * An error chunk rejects, with its text, as it puts useChat in its error state.
 */
export async function finalMessage(response: Response): Promise<ChatMessage> {
  if (!response.body) throw new Error("response has no body");
  let errorText: string | undefined;
  const chunks = parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream<{ success: boolean; value?: UIMessageChunk; error?: unknown }, UIMessageChunk>({
      transform(result, controller) {
        if (!result.success || !result.value) throw result.error;
        if (result.value.type === "error") errorText = result.value.errorText;
        controller.enqueue(result.value);
      },
    }),
  );
  let last: ChatMessage | undefined;
  for await (const message of readUIMessageStream<ChatMessage>({ stream: chunks as ReadableStream<never> })) {
    last = message;
  }
  if (errorText !== undefined) throw new Error(errorText);
  if (!last) throw new Error("the stream produced no message");
  return last;
}
