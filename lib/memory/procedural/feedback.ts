import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { afterPosition, decodeCursor, type KeysetOrder, keysetPage, orderBy } from "@/lib/db/keyset";
import { answerFeedback, messages } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";
import { AppError, parseInput } from "@/lib/errors";
import { type CreateFeedbackInput, createFeedbackInputSchema, type FeedbackJson, LIMITS } from "@/lib/memory/contract";
import type { MemoryContext } from "@/lib/memory/core";

type FeedbackRow = typeof answerFeedback.$inferSelect;

export interface Feedback {
  id: string;
  messageId: string;
  threadId: string;
  rating: "up" | "down";
  comment: string | null;
  instructionsVersion: number | null;
  optimizerRunId: string | null;
  createdAt: Date;
}

/** Absent, or not the caller's: indistinguishable, like memories. */
export class MessageNotFoundError extends AppError {
  constructor(id: string) {
    super("not_found", `No message with id ${id}.`);
    this.name = "MessageNotFoundError";
  }
}

/**
 * Records the user's rating of one of their assistant answers, with the instructions version that answer ran with,
 * and asks for an optimizer pass once it commits.
 */
export async function createFeedback(ctx: MemoryContext, raw: CreateFeedbackInput): Promise<Feedback> {
  const input = parseInput(createFeedbackInputSchema, raw);
  const userId = ctx.principal.userId;
  const row = await asUser(ctx, async (unit) => {
    const [message] = await unit.db
      .select({ role: messages.role, threadId: messages.threadId, metadata: messages.metadata })
      .from(messages)
      .where(and(eq(messages.userId, userId), eq(messages.id, input.messageId)));
    if (!message) throw new MessageNotFoundError(input.messageId);
    if (message.role !== "assistant") {
      throw new AppError("unprocessable", "Only an assistant's answer can be rated.", [
        { path: ["messageId"], message: `a ${message.role} message` },
      ]);
    }
    const version = message.metadata?.instructionsVersion;
    const [inserted] = await unit.db
      .insert(answerFeedback)
      .values({
        userId,
        messageId: input.messageId,
        threadId: message.threadId,
        rating: input.rating,
        comment: input.comment ? input.comment : null,
        instructionsVersion: typeof version === "number" ? version : null,
        createdAt: ctx.clock(),
      })
      .returning();
    const schedule = ctx.scheduleOptimizer;
    if (schedule) unit.afterCommit(() => schedule(userId));
    return inserted as FeedbackRow;
  });
  return toFeedback(row);
}

const FEEDBACK_ORDER: KeysetOrder = { name: "feedback", direction: "asc" };

/** The user's feedback, oldest first, keyset-paged; `unread` keeps what no optimizer pass has read yet. */
export async function listFeedback(
  binding: UserBinding,
  options: { unread?: boolean; limit?: number; cursor?: string } = {},
): Promise<{ feedback: Feedback[]; nextCursor: string | null }> {
  const limit = options.limit ?? LIMITS.listPage;
  const position = decodeCursor(options.cursor, FEEDBACK_ORDER, { idSchema: z.uuid() });
  const rows = await asUser(binding, ({ db }) =>
    db
      .select()
      .from(answerFeedback)
      .where(
        and(
          eq(answerFeedback.userId, binding.principal.userId),
          options.unread ? isNull(answerFeedback.optimizerRunId) : undefined,
          afterPosition(answerFeedback.createdAt, answerFeedback.id, FEEDBACK_ORDER, position),
        ),
      )
      .orderBy(...orderBy(answerFeedback.createdAt, answerFeedback.id, FEEDBACK_ORDER))
      .limit(limit + 1),
  );
  const { page, nextCursor } = keysetPage(rows, limit, FEEDBACK_ORDER, (row) => ({ at: row.createdAt, id: row.id }));
  return { feedback: page.map(toFeedback), nextCursor };
}

function toFeedback(row: FeedbackRow): Feedback {
  return {
    id: row.id,
    messageId: row.messageId,
    threadId: row.threadId,
    rating: row.rating,
    comment: row.comment,
    instructionsVersion: row.instructionsVersion,
    optimizerRunId: row.optimizerRunId,
    createdAt: row.createdAt,
  };
}

export function serializeFeedback(feedback: Feedback): FeedbackJson {
  return {
    id: feedback.id,
    messageId: feedback.messageId,
    threadId: feedback.threadId,
    rating: feedback.rating,
    ...(feedback.comment ? { comment: feedback.comment } : {}),
    ...(feedback.instructionsVersion !== null ? { instructionsVersion: feedback.instructionsVersion } : {}),
    createdAt: feedback.createdAt.toISOString(),
  };
}
