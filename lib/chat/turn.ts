import {
  convertToModelMessages,
  createIdGenerator,
  createUIMessageStreamResponse,
  generateText,
  isStepCount,
  type LanguageModel,
  streamText,
  toUIMessageStream,
} from "ai";
import { SUMMARIZE_INSTRUCTIONS, TITLE_INSTRUCTIONS } from "@/lib/ai/prompts";
import { asUser } from "@/lib/db/principal";
import { logFailure } from "@/lib/log";
import { createMemoryTools, type MemoryContext } from "@/lib/memory";
import { recordMemoryAccess } from "./access-log";
import { planContextWindow, transcript } from "./context-window";
import { buildInstructions } from "./instructions";
import { recallMemories } from "./recall";
import type { ChatRequest } from "./request";
import {
  ensureThread,
  loadMessages,
  saveSummary,
  setThreadTitle,
  ThreadChangedError,
  writeMessagesFrom,
} from "./threads";
import type { ChatMessage } from "./types";

const MAX_STEPS = 5;
const MAX_QUOTE = 1_000;
const newMessageId = createIdGenerator({ prefix: "msg", size: 16 });

export class ChatTurnError extends Error {
  constructor(
    readonly code: "conflict" | "unprocessable",
    message: string,
  ) {
    super(message);
    this.name = "ChatTurnError";
  }
}

export interface ChatTurnOptions {
  /** The caller's memory context; the turn derives the agent's writes (actor, provenance) from it. */
  memory: MemoryContext;
  model: LanguageModel;
  modelId: string;
  contextTokens: number;
  abortSignal?: AbortSignal;
  /** Runs after the answer is stored, e.g. to schedule background extraction. */
  onAnswerSaved?: (answer: ChatMessage) => Promise<void>;
}

export interface ChatTurn {
  response: Response;
  /** Work for after the response has been sent (titling a new chat); the route hands it to `after()`. */
  afterResponse: () => Promise<void>;
}

/**
 * One chat exchange: store the user's message first (so a provider failure never loses it), recall memories into the
 * instructions as data, fold old turns into the running summary when over budget, stream the answer with the memory
 * tools, then store the answer and log which memories shaped it.
 */
export async function startChatTurn(options: ChatTurnOptions, request: ChatRequest): Promise<ChatTurn> {
  const { memory, model, modelId } = options;
  const db = memory.database.db;
  const { userId } = memory.principal;
  // One transaction: a refused request (nothing to regenerate, a message sent twice, a racing turn) leaves no empty
  // chat behind, and the turn's opening reads and writes share one binding to the user.
  const { history, thread } = await asUser(db, userId, async (tx) => {
    const stored = await loadMessages(tx, userId, request.id);
    const history = historyFor(request, stored);
    const thread = await ensureThread(tx, userId, request.id);
    const regenerating = request.trigger === "regenerate-message";
    try {
      await writeMessagesFrom(tx, userId, thread.id, history, regenerating ? history.length : stored.length, {
        replace: regenerating,
      });
    } catch (error) {
      if (error instanceof ThreadChangedError) throw new ChatTurnError("conflict", error.message);
      throw error;
    }
    return { history, thread };
  });

  const question = history.at(-1)!;
  const questionText = textOf(question);
  const agent: MemoryContext = {
    ...memory,
    actor: { type: "agent", id: modelId },
    provenance: {
      source: "chat",
      threadId: thread.id,
      messageId: question.id,
      quote: questionText.slice(0, MAX_QUOTE),
    },
  };

  const recalled = await recallMemories(agent, questionText);
  const plan = planContextWindow(history, thread.summarizedThrough, options.contextTokens);
  let summary = thread.summary;
  if (plan.fold.length > 0) {
    summary = await summarize(model, summary, plan.fold);
    await saveSummary(db, userId, thread.id, summary, plan.keepFrom);
  }

  const tools = createMemoryTools(agent, { agentId: modelId });
  const result = streamText({
    model,
    instructions: buildInstructions({ recalled, summary }),
    messages: await convertToModelMessages(history.slice(plan.keepFrom), { tools }),
    tools,
    stopWhen: isStepCount(MAX_STEPS),
    abortSignal: options.abortSignal,
    // The default logs the whole provider error, whose request body is this prompt: memories and messages.
    onError: ({ error }) => logFailure("the chat model failed", error),
  });
  // Finish the turn (and store it) even if the browser goes away mid-stream.
  void result.consumeStream();

  const stream = toUIMessageStream<typeof tools, ChatMessage>({
    stream: result.stream,
    tools,
    originalMessages: history,
    generateMessageId: newMessageId,
    messageMetadata: ({ part }) =>
      part.type === "start" ? { createdAt: new Date().toISOString(), model: modelId, recalled } : undefined,
    onEnd: async ({ responseMessage }) => {
      if (responseMessage.parts.length === 0) return;
      try {
        await writeMessagesFrom(db, userId, thread.id, [...history, responseMessage], history.length);
      } catch (error) {
        // Another request answered or rewrote this turn meanwhile; its version stands.
        if (error instanceof ThreadChangedError) return;
        throw error;
      }
      await recordMemoryAccess(db, { userId, threadId: thread.id }, responseMessage, recalled);
      await options.onAnswerSaved?.(responseMessage);
    },
    onError: describeProviderError,
    // Tool errors are already written for the user by the memory tools; keep them visible in the chips.
    redactToolErrors: false,
  });

  const afterResponse = async () => {
    if (!thread.title) await titleThread(options, thread.id, questionText);
  };
  return { response: createUIMessageStreamResponse({ stream }), afterResponse };
}

function historyFor(request: ChatRequest, stored: ChatMessage[]): ChatMessage[] {
  if (request.trigger === "submit-message") {
    if (stored.some((message) => message.id === request.message.id)) {
      throw new ChatTurnError("conflict", "This message was already sent.");
    }
    return [...stored, { id: request.message.id, role: "user", parts: request.message.parts }];
  }
  // Answer the latest user message again: drop whatever answer (or failed attempt) followed it.
  const lastUser = stored.findLastIndex((message) => message.role === "user");
  if (lastUser < 0) throw new ChatTurnError("unprocessable", "There is no message to answer in this chat.");
  return stored.slice(0, lastUser + 1);
}

function textOf(message: ChatMessage): string {
  return message.parts.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

async function summarize(model: LanguageModel, previous: string | null, fold: ChatMessage[]): Promise<string> {
  const earlier = previous ? `Previous summary:\n${previous}\n\n` : "";
  const { text } = await generateText({
    model,
    instructions: SUMMARIZE_INSTRUCTIONS,
    prompt: `${earlier}Conversation:\n${transcript(fold)}`,
  });
  return text.trim();
}

async function titleThread(options: ChatTurnOptions, threadId: string, firstMessage: string) {
  try {
    const { text } = await generateText({
      model: options.model,
      instructions: TITLE_INSTRUCTIONS,
      prompt: firstMessage.slice(0, 2_000),
    });
    const title = text
      .trim()
      .replace(/^["']|["']$/g, "")
      .slice(0, 80);
    if (title) await setThreadTitle(options.memory.database.db, options.memory.principal.userId, threadId, title);
  } catch (error) {
    logFailure("could not title the chat", error, "warn");
  }
}

function describeProviderError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message ? `the model provider failed (${message.slice(0, 300)})` : "the model provider failed";
}
