import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { decodeKeyset, keysetPage, olderThan } from "@/lib/db/keyset";
import { extractionRuns, threads } from "@/lib/db/schema";

export type RunStatus = (typeof extractionRuns.$inferSelect)["status"];

export interface RunView {
  id: string;
  threadId: string;
  threadTitle: string | null;
  status: RunStatus;
  messages: { from: number; through: number };
  model: string | null;
  proposed: OpLine[];
  applied: OpLine[];
  rejected: OpLine[];
  tokens: { input: number | null; output: number | null };
  attempts: number;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/** One op as the runs page lists it; the run log stores ops as JSON written by the extractor. */
export interface OpLine {
  op: string;
  text: string;
  memoryId?: string;
  reason?: string;
  quote?: string;
}

const opShape = z.looseObject({
  op: z.string().optional(),
  id: z.string().optional(),
  memoryId: z.string().optional(),
  text: z.string().optional(),
  content: z.unknown().optional(),
  quote: z.string().optional(),
  reason: z.string().optional(),
});

function describeContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (content && typeof content === "object") {
    const values = Object.values(content).filter((value) => typeof value === "string");
    if (values.length) return values.join(" · ");
  }
  return content === undefined ? "" : JSON.stringify(content);
}

/** Reads a logged op leniently; rejected entries wrap the proposed op as `{ op, reason }`. */
export function opLine(raw: unknown): OpLine {
  const wrapper = z.object({ op: z.unknown(), reason: z.string() }).safeParse(raw);
  if (wrapper.success && typeof wrapper.data.op === "object" && wrapper.data.op !== null) {
    return { ...opLine(wrapper.data.op), reason: wrapper.data.reason };
  }
  const parsed = opShape.safeParse(raw);
  if (!parsed.success) return { op: "unknown", text: JSON.stringify(raw) };
  const op = parsed.data;
  return {
    op: op.op ?? "unknown",
    text: op.text ?? describeContent(op.content),
    memoryId: op.memoryId ?? op.id,
    reason: op.reason,
    quote: op.quote,
  };
}

/** The caller's extraction runs, newest first, keyset-paged; optionally only one status. */
export async function listExtractionRuns(
  db: Db,
  userId: string,
  options: { status?: RunStatus; cursor?: string; limit?: number } = {},
): Promise<{ runs: RunView[]; nextCursor: string | null }> {
  const limit = options.limit ?? 25;
  const position = decodeKeyset(options.cursor, z.uuid());
  const rows = await db
    .select({ run: extractionRuns, threadTitle: threads.title })
    .from(extractionRuns)
    .leftJoin(threads, and(eq(threads.userId, extractionRuns.userId), eq(threads.id, extractionRuns.threadId)))
    .where(
      and(
        eq(extractionRuns.userId, userId),
        options.status ? eq(extractionRuns.status, options.status) : undefined,
        olderThan(extractionRuns.createdAt, extractionRuns.id, position),
      ),
    )
    .orderBy(desc(extractionRuns.createdAt), desc(extractionRuns.id))
    .limit(limit + 1);
  const { page, nextCursor } = keysetPage(rows, limit, ({ run }) => ({ at: run.createdAt, id: run.id }));
  return {
    runs: page.map(({ run, threadTitle }) => ({
      id: run.id,
      threadId: run.threadId,
      threadTitle,
      status: run.status,
      messages: { from: run.fromPosition, through: run.throughPosition },
      model: run.model,
      proposed: run.opsProposed.map(opLine),
      applied: run.opsApplied.map(opLine),
      rejected: run.opsRejected.map(opLine),
      tokens: { input: run.inputTokens, output: run.outputTokens },
      attempts: run.attempts,
      error: run.error,
      createdAt: run.createdAt,
      finishedAt: run.finishedAt,
    })),
    nextCursor,
  };
}
