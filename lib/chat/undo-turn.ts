import { and, asc, desc, eq, lt } from "drizzle-orm";
import { memoryProposals, memoryVersions, messages } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { type MemoryContext, withUnit } from "@/lib/memory/core";
import { rejectProposal } from "@/lib/memory/review";
import { type RevertOutcome, revertWrites, spansOf } from "@/lib/memory/store";

export interface TurnUndo extends RevertOutcome {
  messageId: string;
  /** The turn's proposals that were still waiting for review, now rejected as withdrawn. */
  withdrawn: string[];
}

const MESSAGE_ID = /^[\w-]{1,100}$/;

export class TurnNotUndoableError extends AppError {
  constructor(code: "conflict" | "unprocessable", message: string) {
    super(code, message);
    this.name = "TurnNotUndoableError";
  }
}

/**
 * Undoes the memory changes the chat model made in the turn that `answerId` ended (docs/api.md, "Undo a
 * turn"), in one unit of work: its writes are the versions it made as the chat's agent citing the turn's question;
 * each memory goes back as it was before the turn unless changed since (then skipped and named, as in reverting a run),
 * and the turn's proposals still pending are withdrawn. A turn is undone once; again is a conflict.
 */
export async function undoTurn(ctx: MemoryContext, answerId: string): Promise<TurnUndo> {
  const notFound = new AppError("not_found", `No message with id ${answerId}.`);
  if (!MESSAGE_ID.test(answerId)) throw notFound;
  const userId = ctx.principal.userId;
  return withUnit(ctx, async (writer) => {
    const { db } = writer.unit!;
    const where = and(eq(messages.userId, userId), eq(messages.id, answerId));
    const [answer] = await db.select().from(messages).where(where).for("update");
    if (!answer) throw notFound;
    if (answer.role !== "assistant") {
      throw new TurnNotUndoableError("unprocessable", "Only an answer's turn can be undone; this is a user's message.");
    }
    if (answer.memoryRevertedAt) {
      throw new TurnNotUndoableError(
        "conflict",
        `This turn's memory changes were already undone (${answer.memoryRevertedAt.toISOString()}).`,
      );
    }
    const [question] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.userId, userId),
          eq(messages.threadId, answer.threadId),
          lt(messages.position, answer.position),
          eq(messages.role, "user"),
        ),
      )
      .orderBy(desc(messages.position))
      .limit(1);
    const ofTurn = (table: typeof memoryVersions | typeof memoryProposals) =>
      and(
        eq(table.userId, userId),
        eq(table.threadId, answer.threadId),
        eq(table.messageId, question?.id ?? ""),
        eq(table.sourceType, "chat"),
        eq(table.actorType, "agent"),
      );
    const written = await db
      .select({ memoryId: memoryVersions.memoryId, version: memoryVersions.version })
      .from(memoryVersions)
      .where(ofTurn(memoryVersions))
      .orderBy(asc(memoryVersions.createdAt), asc(memoryVersions.version));
    const outcome = await revertWrites(writer, spansOf(written), "this turn", `undid chat turn ${answerId}`);
    const pending = await db
      .select({ id: memoryProposals.id })
      .from(memoryProposals)
      .where(and(ofTurn(memoryProposals), eq(memoryProposals.status, "pending")));
    for (const { id } of pending) {
      await rejectProposal(writer, id, { reason: "withdrawn: the chat turn was undone" });
    }
    await db.update(messages).set({ memoryRevertedAt: ctx.clock() }).where(where);
    return { messageId: answerId, ...outcome, withdrawn: pending.map(({ id }) => id) };
  });
}
