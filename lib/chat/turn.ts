import {
  convertToModelMessages,
  createIdGenerator,
  createUIMessageStreamResponse,
  generateText,
  isStepCount,
  type LanguageModel,
  streamText,
  toUIMessageStream,
  type UIMessageStreamOutcome,
} from "ai";
import { describeModelFailure } from "@/lib/ai/failures";
import { SUMMARIZE_INSTRUCTIONS, TITLE_INSTRUCTIONS } from "@/lib/ai/prompts";
import { AppError } from "@/lib/errors";
import { logFailure } from "@/lib/log";
import { LIMITS } from "@/lib/memory/contract";
import { type MemoryContext, withUnit } from "@/lib/memory/core";
import { currentInstructions } from "@/lib/memory/procedural";
import { embedAheadOfSearch } from "@/lib/memory/search";
import { listRules } from "@/lib/memory/store";
import { addUsage, type Pricing, recordUsage, type TokenUsage, tokensOnDay } from "@/lib/memory/usage";
import { modelTelemetry, openSpan } from "@/lib/telemetry";
import { recordMemoryAccess } from "./access-log";
import { planContextWindow, transcript } from "./context-window";
import { answerStream } from "./endings";
import { buildInstructions } from "./instructions";
import { createMemoryTools } from "./memory-tools";
import { recallMemories, recallQuery } from "./recall";
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

export interface ChatTurnOptions {
  /** The caller's memory context; the turn derives the agent's writes (actor, provenance) from it. */
  memory: MemoryContext;
  model: LanguageModel;
  modelId: string;
  contextTokens: number;
  abortSignal?: AbortSignal;
  /** Prices the turn's tokens for the cost ledger; absent, they are recorded without a cost. */
  pricing?: Pricing;
  /**
   * The model tokens (in and out) the user's chat may spend per UTC day, by the usage ledger: a turn asked for once
   * today's have reached it is refused (quota_exceeded) before anything is stored. Absent, no cap. A turn that starts
   * below it runs to its end, so a day's total can pass the cap by at most one turn.
   */
  dailyTokens?: number;
  /** Runs after the answer is stored, e.g. to schedule background extraction. */
  onAnswerSaved?: (answer: ChatMessage) => Promise<void>;
}

/** Today's chat tokens have reached the user's daily cap. */
export class ChatQuotaError extends AppError {
  constructor(readonly dailyTokens: number) {
    super(
      "quota_exceeded",
      `Daily chat quota reached: this account's chat may use ${dailyTokens.toLocaleString("en")} model ` +
        `token${dailyTokens === 1 ? "" : "s"} a day ` +
        "(UTC), and today's are spent. Chat again after midnight UTC.",
    );
    this.name = "ChatQuotaError";
  }
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
  // The turn's span lasts until its answer is stored: recall, the model calls and tools, and the extraction it queues.
  const span = openSpan("chat turn", { "chat.thread.id": request.id, "chat.model": options.modelId });
  try {
    return await span.run(() => runChatTurn(options, request, span));
  } catch (error) {
    span.end(error);
    throw error;
  }
}

async function runChatTurn(
  options: ChatTurnOptions,
  request: ChatRequest,
  span: ReturnType<typeof openSpan>,
): Promise<ChatTurn> {
  const { model, modelId } = options;
  const { history, thread, questionText, agent } = await beginTurn(options, request);
  const { recalled, rules, standing, plan, summary, summaryUsage } = await gatherContext(
    options,
    agent,
    thread,
    history,
    questionText,
  );
  span.span.setAttribute("chat.recalled", recalled.length);

  // Fixed up front so the ledger row of this turn names the answer it paid for.
  const answerId = newMessageId();
  let ledgerWrite: Promise<void> | undefined;

  const tools = createMemoryTools(agent, { agentId: modelId });
  const result = streamText({
    model,
    instructions: buildInstructions({ recalled, summary, rules, preferences: standing?.text }),
    messages: await convertToModelMessages(history.slice(plan.keepFrom), { tools }),
    tools,
    stopWhen: isStepCount(MAX_STEPS),
    abortSignal: options.abortSignal,
    telemetry: modelTelemetry("chat"),
    // The default logs the whole provider error, whose request body is this prompt: memories and messages.
    onError: ({ error }) => logFailure("the chat model failed", error),
    onEnd: ({ totalUsage }) => {
      ledgerWrite = recordTurnUsage(options, {
        usage: addUsage(summaryUsage, totalUsage),
        threadId: thread.id,
        messageId: answerId,
      });
    },
  });
  // Finish the turn (and store it) even if the browser goes away mid-stream.
  void result.consumeStream();

  const stream = toUIMessageStream<typeof tools, ChatMessage>({
    stream: answerStream(result.stream, {
      maxSteps: MAX_STEPS,
      onBroken: (error) => logFailure("the chat model's stream broke off", error),
    }),
    tools,
    originalMessages: history,
    generateMessageId: () => answerId,
    messageMetadata: ({ part }) =>
      part.type === "start"
        ? {
            createdAt: new Date().toISOString(),
            model: modelId,
            recalled,
            ...(standing ? { instructionsVersion: standing.version } : {}),
          }
        : undefined,
    onEnd: closingSpan(span, async (end) => {
      await ledgerWrite;
      await saveAnswer(options, thread.id, history, recalled, end);
    }),
    onError: describeModelFailure,
    // Tool errors are already written for the user by the memory tools; keep them visible in the chips.
    redactToolErrors: false,
  });

  const afterResponse = async () => {
    if (!thread.title) await titleThread(options, thread.id, questionText);
  };
  return { response: createUIMessageStreamResponse({ stream }), afterResponse };
}

/**
 * `store` in the turn's span, which it then ends. In the span, not the reader's context (which a stream's callbacks
 * run in), so the extraction the stored answer queues is linked to this turn.
 */
function closingSpan<End extends { outcome: UIMessageStreamOutcome }>(
  span: ReturnType<typeof openSpan>,
  store: (end: End) => Promise<void>,
) {
  return (end: End) =>
    span.run(async () => {
      try {
        await store(end);
        span.end(end.outcome.status === "failed" ? end.outcome.error : undefined);
      } catch (error) {
        span.end(error);
        throw error;
      }
    });
}

/**
 * Checks the daily quota and stores the turn's messages in one transaction: a refused request (over the quota, nothing
 * to regenerate, a message sent twice, a racing turn) leaves no empty chat behind. The turn's own reads and writes are
 * in three units of work, this one, gatherContext's and saveAnswer's (the memory tools, the ledger, a summary and a
 * title have theirs): on PGlite every unit is three more statements on its one connection, which people chatting at
 * once queue for (docs/performance.md).
 */
async function openTurn({ memory, dailyTokens }: ChatTurnOptions, request: ChatRequest) {
  return withUnit(memory, async (tx) => {
    if (dailyTokens !== undefined && (await tokensOnDay(tx, "chat", memory.clock())) >= dailyTokens) {
      throw new ChatQuotaError(dailyTokens);
    }
    const stored = await loadMessages(tx, request.id);
    const history = historyFor(request, stored);
    const thread = await ensureThread(tx, request.id);
    const regenerating = request.trigger === "regenerate-message";
    await writeMessagesFrom(tx, thread.id, history, regenerating ? history.length : stored.length, {
      replace: regenerating,
    });
    return { history, thread };
  });
}

/**
 * Opens the turn (openTurn) and makes the model's context for it. A new message is embedded meanwhile: recall's unit
 * then finds its vector ready (gatherContext), as the search's lexical leg used to overlap the encoder; a turn openTurn
 * refuses (over quota, a thread changed under it) has spent that one embedding. A regenerated answer's question is
 * known once the turn is open.
 */
async function beginTurn(options: ChatTurnOptions, request: ChatRequest) {
  const queryEmbeddings: MemoryContext["queryEmbeddings"] = new Map();
  if (request.trigger === "submit-message") {
    void embedAheadOfSearch({ ...options.memory, queryEmbeddings }, recallQuery(textOf(request.message)));
  }
  const { history, thread } = await openTurn(options, request);
  const question = history.at(-1)!;
  const questionText = textOf(question);
  const agent = agentContext(options, { threadId: thread.id, messageId: question.id, questionText, queryEmbeddings });
  return { history, thread, questionText, agent };
}

/** The model's own context for this turn: its writes name the model, the chat and the message they came from. */
function agentContext(
  options: ChatTurnOptions,
  {
    threadId,
    messageId,
    questionText,
    queryEmbeddings,
  }: Pick<MemoryContext, "queryEmbeddings"> & { threadId: string; messageId: string; questionText: string },
) {
  const agent: MemoryContext = {
    ...options.memory,
    queryEmbeddings,
    actor: { type: "agent", id: options.modelId },
    provenance: { source: "chat", threadId, messageId, quote: questionText.slice(0, MAX_QUOTE) },
  };
  return agent;
}

/** What the answer is written with: recalled memories, the user's rules and instructions, and the running summary. */
async function gatherContext(
  options: ChatTurnOptions,
  agent: MemoryContext,
  thread: { id: string; summary: string | null; summarizedThrough: number },
  history: ChatMessage[],
  questionText: string,
) {
  const { memory, model } = options;
  await embedAheadOfSearch(agent, recallQuery(questionText));
  // One after another in one unit: on PostgreSQL they were three transactions at once, which overlapped their waits.
  const { recalled, rules, standing } = await withUnit(agent, async (tx) => ({
    recalled: await recallMemories(tx, questionText),
    rules: await listRules(tx),
    standing: await currentInstructions(tx),
  }));
  const plan = planContextWindow(history, thread.summarizedThrough, options.contextTokens);
  let summary = thread.summary;
  let summaryUsage: TokenUsage = {};
  if (plan.fold.length > 0) {
    const folded = await summarize(model, summary, plan.fold);
    summary = folded.text;
    summaryUsage = folded.usage;
    await saveSummary(memory, thread.id, summary, plan.keepFrom);
  }
  return { recalled, rules, standing, plan, summary, summaryUsage };
}

/**
 * Stores the answer once the stream ends. A partial answer is kept, marked, so the person sees what arrived and can
 * retry; it is no answer to extract. The answer and the record of the memories that shaped it are one write: an answer
 * is never stored without that record (a fault in either stores neither, as a fault storing the answer always did).
 */
async function saveAnswer(
  options: ChatTurnOptions,
  threadId: string,
  history: ChatMessage[],
  recalled: Awaited<ReturnType<typeof recallMemories>>,
  {
    responseMessage,
    outcome,
    isAborted,
  }: { responseMessage: ChatMessage; outcome: UIMessageStreamOutcome; isAborted: boolean },
) {
  const { memory } = options;
  if (!responseMessage.parts.some((part) => part.type !== "step-start")) return;
  const failure =
    outcome.status === "failed"
      ? describeModelFailure(outcome.error)
      : outcome.status === "aborted" || isAborted
        ? "The answer was stopped before it was complete."
        : undefined;
  const answer: ChatMessage = failure
    ? { ...responseMessage, metadata: { ...responseMessage.metadata, incomplete: true, failure } }
    : responseMessage;
  try {
    await withUnit(memory, async (tx) => {
      await writeMessagesFrom(tx, threadId, [...history, answer], history.length);
      await recordMemoryAccess(tx, threadId, answer, recalled);
    });
  } catch (error) {
    // Another request answered or rewrote this turn meanwhile; its version stands.
    if (error instanceof ThreadChangedError) return;
    throw error;
  }
  if (!failure) await options.onAnswerSaved?.(answer);
}

function historyFor(request: ChatRequest, stored: ChatMessage[]): ChatMessage[] {
  if (request.trigger === "submit-message") {
    if (stored.some((message) => message.id === request.message.id)) {
      throw new AppError("conflict", "This message was already sent.");
    }
    return [...stored, { id: request.message.id, role: "user", parts: request.message.parts }];
  }
  // Answer the latest user message again: drop whatever answer (or failed attempt) followed it.
  const lastUser = stored.findLastIndex((message) => message.role === "user");
  if (lastUser < 0) throw new AppError("unprocessable", "There is no message to answer in this chat.");
  return stored.slice(0, lastUser + 1);
}

function textOf(message: Pick<ChatMessage, "parts">): string {
  return message.parts.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

/** The turn's model calls go on the user's ledger; a ledger fault is logged and never costs the user the answer. */
async function recordTurnUsage(
  options: ChatTurnOptions,
  entry: { usage: TokenUsage; threadId: string; messageId?: string },
): Promise<void> {
  try {
    await recordUsage(options.memory, {
      kind: "chat",
      model: options.modelId,
      usage: entry.usage,
      costUsd: options.pricing?.(entry.usage) ?? null,
      threadId: entry.threadId,
      messageId: entry.messageId,
    });
  } catch (error) {
    logFailure("could not record the chat's model usage", error);
  }
}

async function summarize(
  model: LanguageModel,
  previous: string | null,
  fold: ChatMessage[],
): Promise<{ text: string; usage: TokenUsage }> {
  const earlier = previous ? `Previous summary:\n${previous}\n\n` : "";
  const { text, totalUsage } = await generateText({
    model,
    instructions: SUMMARIZE_INSTRUCTIONS,
    prompt: `${earlier}Conversation:\n${transcript(fold)}`,
    telemetry: modelTelemetry("chat-summary"),
  });
  return { text: text.trim(), usage: totalUsage };
}

async function titleThread(options: ChatTurnOptions, threadId: string, firstMessage: string) {
  try {
    const { text, totalUsage } = await generateText({
      model: options.model,
      instructions: TITLE_INSTRUCTIONS,
      prompt: firstMessage.slice(0, 2_000),
      telemetry: modelTelemetry("chat-title"),
    });
    await recordTurnUsage(options, { usage: totalUsage, threadId });
    const title = text
      .trim()
      .replace(/^["']|["']$/g, "")
      .slice(0, LIMITS.threadTitleChars);
    if (title) await setThreadTitle(options.memory, threadId, title);
  } catch (error) {
    logFailure("could not title the chat", error, "warn");
  }
}
