import { and, asc, eq, gt, gte, sql } from "drizzle-orm";
import { afterPosition, decodeCursor, type KeysetOrder, keysetPage, orderBy } from "@/lib/db/keyset";
import { messages, threads } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";
import { AppError } from "@/lib/errors";
import { eraseThreadWords } from "@/lib/memory/store";
import { upgradeStoredParts } from "./stored-parts";
import type { ChatMessage } from "./types";

export type Thread = typeof threads.$inferSelect;

export class ThreadNotFoundError extends AppError {
  constructor() {
    super("not_found", "Chat not found.");
    this.name = "ThreadNotFoundError";
  }
}

const owned = (userId: string, threadId: string) => and(eq(threads.userId, userId), eq(threads.id, threadId));

export async function getThread(ctx: UserBinding, threadId: string): Promise<Thread | null> {
  const userId = ctx.principal.userId;
  const [thread] = await asUser(ctx, ({ db }) => db.select().from(threads).where(owned(userId, threadId)).limit(1));
  return thread ?? null;
}

/**
 * The caller's thread with this id, created on first use. Thread ids are chosen by the client, so an id that another
 * user already holds is simply a different row under this user: the primary key leads with user_id.
 */
export async function ensureThread(ctx: UserBinding, threadId: string): Promise<Thread> {
  const userId = ctx.principal.userId;
  return asUser(ctx, async ({ db }) => {
    await db.insert(threads).values({ userId, id: threadId }).onConflictDoNothing();
    const [thread] = await db.select().from(threads).where(owned(userId, threadId)).limit(1);
    if (!thread) throw new ThreadNotFoundError();
    return thread;
  });
}

export interface ThreadPage {
  threads: Array<Pick<Thread, "id" | "title" | "updatedAt">>;
  nextCursor: string | null;
}

const THREAD_ORDER: KeysetOrder = { name: "threads", direction: "desc" };

/**
 * Newest first, keyset-paginated on (updated_at, id) so pages stay cheap however many threads a user has. The
 * sidebar loads more as a person scrolls: a cursor it cannot read starts over.
 */
export async function listThreads(ctx: UserBinding, options: { limit?: number; cursor?: string } = {}) {
  const userId = ctx.principal.userId;
  const limit = options.limit ?? 30;
  const after = decodeCursor(options.cursor, THREAD_ORDER, { onInvalid: "restart" });
  const rows = await asUser(ctx, ({ db }) =>
    db
      .select({ id: threads.id, title: threads.title, updatedAt: threads.updatedAt })
      .from(threads)
      .where(and(eq(threads.userId, userId), afterPosition(threads.updatedAt, threads.id, THREAD_ORDER, after)))
      .orderBy(...orderBy(threads.updatedAt, threads.id, THREAD_ORDER))
      .limit(limit + 1),
  );
  const { page, nextCursor } = keysetPage(rows, limit, THREAD_ORDER, (row) => ({ at: row.updatedAt, id: row.id }));
  return { threads: page, nextCursor } satisfies ThreadPage;
}

export async function renameThread(ctx: UserBinding, threadId: string, title: string) {
  const userId = ctx.principal.userId;
  const [row] = await asUser(ctx, ({ db }) =>
    db
      .update(threads)
      .set({ title, updatedAt: new Date() })
      .where(owned(userId, threadId))
      .returning({ id: threads.id }),
  );
  if (!row) throw new ThreadNotFoundError();
}

/**
 * Deletes the conversation and its messages, and with them its words wherever they were copied (eraseThreadWords):
 * the memories it gave rise to stay, their source saying the chat was deleted.
 */
export async function deleteThread(ctx: UserBinding, threadId: string) {
  const userId = ctx.principal.userId;
  const [row] = await asUser(ctx, async ({ db }) => {
    const said = await db
      .select({ id: messages.id, parts: messages.parts })
      .from(messages)
      .where(and(eq(messages.userId, userId), eq(messages.threadId, threadId)));
    const deleted = await db.delete(threads).where(owned(userId, threadId)).returning({ id: threads.id });
    if (deleted.length > 0) {
      const words = said.map((message) => ({ id: message.id, text: textOf(message.parts) }));
      await eraseThreadWords(db, userId, threadId, words);
    }
    return deleted;
  });
  if (!row) throw new ThreadNotFoundError();
}

/** The text parts of a stored message. */
function textOf(parts: unknown[]): string {
  return parts
    .map((part) => {
      const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown };
      return type === "text" && typeof text === "string" ? text : "";
    })
    .filter(Boolean)
    .join("\n");
}

export async function loadMessages(ctx: UserBinding, threadId: string): Promise<ChatMessage[]> {
  const userId = ctx.principal.userId;
  const rows = await asUser(ctx, ({ db }) =>
    db
      .select()
      .from(messages)
      .where(and(eq(messages.userId, userId), eq(messages.threadId, threadId)))
      .orderBy(asc(messages.position)),
  );
  return rows.map((row) => ({
    id: row.id,
    role: row.role,
    parts: upgradeStoredParts(row.parts as unknown[]),
    ...(row.metadata || row.memoryRevertedAt
      ? {
          metadata: {
            ...row.metadata,
            ...(row.memoryRevertedAt ? { memoryRevertedAt: row.memoryRevertedAt.toISOString() } : {}),
          },
        }
      : {}),
  }));
}

export class ThreadChangedError extends AppError {
  constructor() {
    super("conflict", "This chat changed meanwhile (another tab or request); reload it and try again.");
    this.name = "ThreadChangedError";
  }
}

/**
 * Stores `list` from position `from` on, provided the thread still holds exactly the messages the caller read before
 * `from`. With `replace`, whatever was stored from there on (an answer being regenerated) is dropped and the
 * extraction cursor moved back so the new messages are read; without it nothing may have been stored there yet, so
 * two requests racing on one thread cannot erase each other's messages.
 */
export async function writeMessagesFrom(
  ctx: UserBinding,
  threadId: string,
  list: readonly ChatMessage[],
  from: number,
  options: { replace?: boolean } = {},
) {
  const userId = ctx.principal.userId;
  await asUser(ctx, async ({ db: tx }) => {
    await tx.select({ id: threads.id }).from(threads).where(owned(userId, threadId)).for("update");
    const stored = await tx
      .select({ id: messages.id, position: messages.position })
      .from(messages)
      .where(and(eq(messages.userId, userId), eq(messages.threadId, threadId), gte(messages.position, from - 1)));
    const before = stored.find((message) => message.position === from - 1);
    const prefixHolds = from === 0 || before?.id === list[from - 1]?.id;
    if (!prefixHolds || (!options.replace && stored.some((message) => message.position >= from))) {
      throw new ThreadChangedError();
    }
    if (options.replace) {
      await tx
        .delete(messages)
        .where(and(eq(messages.userId, userId), eq(messages.threadId, threadId), gte(messages.position, from)));
    }
    const tail = list.slice(from).map((message, index) => ({
      userId,
      id: message.id,
      threadId,
      position: from + index,
      role: message.role,
      parts: message.parts as unknown[],
      metadata: (message.metadata ?? null) as Record<string, unknown> | null,
    }));
    if (tail.length) await tx.insert(messages).values(tail);
    await tx
      .update(threads)
      .set({
        updatedAt: new Date(),
        ...(options.replace ? { extractedThrough: sql`least(${threads.extractedThrough}, ${from})` } : {}),
      })
      .where(owned(userId, threadId));
  });
}

export async function setThreadTitle(ctx: UserBinding, threadId: string, title: string) {
  const userId = ctx.principal.userId;
  await asUser(ctx, ({ db }) =>
    db
      .update(threads)
      .set({ title })
      .where(and(owned(userId, threadId), sql`${threads.title} is null`)),
  );
}

export async function saveSummary(ctx: UserBinding, threadId: string, summary: string, through: number) {
  const userId = ctx.principal.userId;
  await asUser(ctx, ({ db }) =>
    db
      .update(threads)
      .set({ summary, summarizedThrough: through })
      .where(and(owned(userId, threadId), gt(sql`${through}`, threads.summarizedThrough))),
  );
}
