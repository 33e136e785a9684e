import { after } from "next/server";
import { chatContextTokens, chatModelId, configuredChatModels } from "@/lib/ai/config";
import { chatLanguageModel } from "@/lib/ai/models";
import { parseRequest, readJsonBody } from "@/lib/api/body";
import { ApiError } from "@/lib/api/errors";
import { memoryRoute } from "@/lib/api/handler";
import { chatRequestSchema } from "@/lib/chat/request";
import { ChatTurnError, startChatTurn } from "@/lib/chat/turn";
import { logFailure } from "@/lib/log";
import { extractionDebounceMs, getExtractionQueue } from "@/lib/server/extraction";

export const maxDuration = 120;

export const POST = memoryRoute(async ({ request, principal, memory }) => {
  const body = parseRequest(chatRequestSchema, await readJsonBody(request));
  const modelId = body.model ?? chatModelId();
  if (!configuredChatModels().includes(modelId)) {
    throw new ApiError("unprocessable", `Model "${modelId}" is not configured on this server.`);
  }
  try {
    const turn = await startChatTurn(
      {
        memory,
        model: chatLanguageModel(modelId),
        modelId,
        contextTokens: chatContextTokens(),
        abortSignal: request.signal,
        onAnswerSaved: () => scheduleExtraction(principal.userId, body.id),
      },
      body,
    );
    after(turn.afterResponse);
    return turn.response;
  } catch (error) {
    if (error instanceof ChatTurnError) throw new ApiError(error.code, error.message);
    throw error;
  }
});

/** Background extraction must never break the chat: a queue failure is logged and the answer stands. */
async function scheduleExtraction(userId: string, threadId: string) {
  try {
    const queue = await getExtractionQueue();
    await queue.enqueue({ userId, threadId, answeredOnly: true }, extractionDebounceMs());
  } catch (error) {
    logFailure("could not schedule memory extraction", error);
  }
}
