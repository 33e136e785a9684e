import type { Call } from "../http-client";
import { type LatencySummary, summarize } from "../metrics";

/** Many people chatting at once over HTTP, each with their own key and thread (POST /api/chat, as the chat UI does). */
export interface ChatLoadFigure {
  people: number;
  messagesEach: number;
  /**
   * Each person's first request (GET /api/v1/me), everyone's at once, each on a new connection, as a page load opens
   * one; absent from runs before it was measured. It runs before anyone chats: a crowd arriving at a server already
   * busy, which takes new connections in one per turn of its event loop, waits longer (docs/performance.md).
   */
  openMs?: LatencySummary;
  /**
   * From sending a message to the end of its streamed answer, on the connection the person opened (in runs without
   * openMs, the first message opened it).
   */
  answerMs: LatencySummary;
  /** Answers that were not a 200 streamed to its end. */
  failed: number;
  /** From the last answer until every thread's extraction had read all of it; null: not within the timeout. */
  extractionCaughtUpMs: number | null;
}

const CATCH_UP_TIMEOUT_MS = 120_000;
const CATCH_UP_POLL_MS = 250;
const CITIES = ["Lisbon", "Porto", "Madrid", "Lyon", "Ghent", "Turin", "Nantes", "Seville"];
const JOBS = ["nurse", "teacher", "architect", "chef", "pilot", "baker", "editor", "plumber"];

/** What person `p` says in message `m`: facts the chat model saves, and a question it answers from memory. */
function messageOf(p: number, m: number): string {
  const said = [
    `Remember that I live in ${CITIES[p % CITIES.length]}.`,
    `I work as a ${JOBS[(p + m) % JOBS.length]} and I keep bees on the roof.`,
    "Where do I live?",
    "What do you know about me?",
  ];
  return said[m % said.length]!;
}

/**
 * Each caller is one person who opens the chat (a request on a new connection, everyone at once) and then sends
 * `messagesEach` messages in their own new thread on it, one after another, all people at once; then waits until
 * background extraction has read every thread to its end.
 */
export async function chatAtOnce(
  callers: Call[],
  messagesEach: number,
  log: (message: string) => void,
): Promise<ChatLoadFigure> {
  log(`chat: ${callers.length} people at once, ${messagesEach} messages each`);
  const run = Date.now().toString(36);
  const threads = callers.map((_, p) => `bench-chat-${run}-${p}`);
  const openMs: number[] = [];
  const answerMs: number[] = [];
  let failed = 0;
  await Promise.all(
    callers.map(async (call) => {
      const started = performance.now();
      const opened = await call("GET", "/api/v1/me");
      openMs.push(performance.now() - started);
      if (opened.status !== 200) throw new Error(`chat: a person's first request answered ${opened.status}`);
    }),
  );
  await Promise.all(
    callers.map(async (call, p) => {
      for (let m = 0; m < messagesEach; m++) {
        const started = performance.now();
        const answer = await call("POST", "/api/chat", {
          id: threads[p],
          trigger: "submit-message",
          message: { id: `${threads[p]}-m${m}`, role: "user", parts: [{ type: "text", text: messageOf(p, m) }] },
        });
        answerMs.push(performance.now() - started);
        if (answer.status !== 200 || !answer.text?.includes("[DONE]")) failed++;
      }
    }),
  );
  const answeredAt = performance.now();
  const caughtUp = async () => {
    for (const [p, call] of callers.entries()) {
      const answer = await call("GET", `/api/v1/threads/${threads[p]}/extraction`);
      const through = (answer.body as { extractedThrough?: number } | null)?.extractedThrough ?? 0;
      if (through < 2 * messagesEach) return false;
    }
    return true;
  };
  let extractionCaughtUpMs: number | null = null;
  while (performance.now() - answeredAt < CATCH_UP_TIMEOUT_MS) {
    if (await caughtUp()) {
      extractionCaughtUpMs = performance.now() - answeredAt;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, CATCH_UP_POLL_MS));
  }
  return {
    people: callers.length,
    messagesEach,
    openMs: summarize(openMs),
    answerMs: summarize(answerMs),
    failed,
    extractionCaughtUpMs,
  };
}
