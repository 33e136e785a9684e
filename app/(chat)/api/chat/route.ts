import { after } from "next/server";
import { configuredChatModels } from "@/lib/ai/config";
import { chatLanguageModel } from "@/lib/ai/models";
import { pricingFor } from "@/lib/ai/prices";
import { readJsonBody } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { chatRequestSchema } from "@/lib/chat/request";
import { startChatTurn } from "@/lib/chat/turn";
import { config } from "@/lib/config";
import { AppError, parseInput } from "@/lib/errors";
import { logFailure } from "@/lib/log";
import { getJobQueue } from "@/lib/server/jobs";
import { chatDailyTokensFor } from "@/lib/server/quotas";

export const maxDuration = 120;

export const POST = memoryRoute(async ({ request, principal, memory }) => {
  const body = parseInput(chatRequestSchema, await readJsonBody(request));
  const modelId = body.model ?? config().CHAT_MODEL;
  if (!configuredChatModels().includes(modelId)) {
    throw new AppError("unprocessable", `Model "${modelId}" is not configured on this server.`);
  }
  const turn = await startChatTurn(
    {
      memory,
      model: chatLanguageModel(modelId),
      modelId,
      contextTokens: config().CHAT_CONTEXT_TOKENS,
      pricing: pricingFor(modelId),
      // Guests may pick any configured model, like everyone; their daily tokens are what bounds the spend.
      dailyTokens: chatDailyTokensFor(principal.isGuest),
      abortSignal: request.signal,
      onAnswerSaved: () => scheduleExtraction(principal.userId, body.id),
    },
    body,
  );
  after(turn.afterResponse);
  return turn.response;
});

/** Background extraction must never break the chat: a queue failure is logged and the answer stands. */
async function scheduleExtraction(userId: string, threadId: string) {
  try {
    const queue = await getJobQueue();
    await queue.enqueue({ userId, threadId, answeredOnly: true }, config().EXTRACTION_DEBOUNCE_MS);
  } catch (error) {
    logFailure("could not schedule memory extraction", error);
  }
}
