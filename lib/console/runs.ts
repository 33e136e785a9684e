import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { afterPosition, decodeCursor, type KeysetOrder, keysetPage, orderBy } from "@/lib/db/keyset";
import { extractionRuns, threads } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";
import { runCosts } from "@/lib/memory/usage";

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
  /** USD over every attempt, from the cost ledger; null when a call's model has no price or nothing was spent. */
  costUsd: number | null;
  attempts: number;
  error: string | null;
  /** When the user undid the run's applied ops; null if never. */
  revertedAt: Date | null;
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

// Fields are null where they do not apply in the manager's wire shape (lib/memory/extraction/ops.ts).
const text = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);
const opShape = z.looseObject({
  op: text,
  id: text,
  memoryId: text,
  text,
  content: z.unknown().optional(),
  fields: z
    .array(z.looseObject({ name: z.unknown(), value: z.unknown() }))
    .nullish()
    .transform((value) => value ?? undefined),
  quote: text,
  reason: text,
  supersededBy: z.looseObject({ text: z.string() }).optional().catch(undefined),
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
    text:
      (op.text ?? describeContent(op.fields ? op.fields.map((field) => field.value) : op.content)) +
      (op.supersededBy ? ` → superseded by “${op.supersededBy.text}”` : ""),
    memoryId: op.memoryId ?? op.id,
    reason: op.reason,
    quote: op.quote,
  };
}

const RUN_ORDER: KeysetOrder = { name: "runs", direction: "desc" };

/** The caller's extraction runs, newest first, keyset-paged; optionally only one status. */
export async function listExtractionRuns(
  ctx: UserBinding,
  options: { status?: RunStatus; cursor?: string; limit?: number } = {},
): Promise<{ runs: RunView[]; nextCursor: string | null }> {
  const limit = options.limit ?? 25;
  const position = decodeCursor(options.cursor, RUN_ORDER, { onInvalid: "restart", idSchema: z.uuid() });
  const rows = await asUser(ctx, ({ db }) =>
    db
      .select({ run: extractionRuns, threadTitle: threads.title })
      .from(extractionRuns)
      .leftJoin(threads, and(eq(threads.userId, extractionRuns.userId), eq(threads.id, extractionRuns.threadId)))
      .where(
        and(
          eq(extractionRuns.userId, ctx.principal.userId),
          options.status ? eq(extractionRuns.status, options.status) : undefined,
          afterPosition(extractionRuns.createdAt, extractionRuns.id, RUN_ORDER, position),
        ),
      )
      .orderBy(...orderBy(extractionRuns.createdAt, extractionRuns.id, RUN_ORDER))
      .limit(limit + 1),
  );
  const { page, nextCursor } = keysetPage(rows, limit, RUN_ORDER, ({ run }) => ({ at: run.createdAt, id: run.id }));
  const costs = await runCosts(
    ctx,
    page.map(({ run }) => run.id),
  );
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
      costUsd: costs.get(run.id)?.costUsd ?? null,
      attempts: run.attempts,
      error: run.error,
      revertedAt: run.revertedAt,
      createdAt: run.createdAt,
      finishedAt: run.finishedAt,
    })),
    nextCursor,
  };
}
