import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { modelUsage } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";
import { instruments } from "@/lib/telemetry/metrics";

export type UsageKind = (typeof modelUsage.$inferSelect)["kind"];
export const USAGE_KINDS: readonly UsageKind[] = ["chat", "extraction"];

/** Tokens one unit of model calls reported (undefined where the provider reported none). */
export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** Prices reported usage in USD, or null when the model has no price. The caller builds it from its price table. */
export type Pricing = (usage: TokenUsage) => number | null;

export interface UsageEntry {
  kind: UsageKind;
  /** `provider:model`. */
  model: string;
  usage: TokenUsage;
  costUsd: number | null;
  threadId?: string;
  messageId?: string;
  runId?: string;
}

/** Adds two reports, e.g. a turn's answer and the summary it folded first. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    inputTokens: (a.inputTokens ?? 0) + (b.inputTokens ?? 0),
    outputTokens: (a.outputTokens ?? 0) + (b.outputTokens ?? 0),
  };
}

/** One ledger row for the binding's user, in its unit of work (or one of its own). */
export async function recordUsage(binding: UserBinding & { clock: () => Date }, entry: UsageEntry): Promise<void> {
  await asUser(binding, ({ db }) =>
    db.insert(modelUsage).values({
      userId: binding.principal.userId,
      kind: entry.kind,
      model: entry.model,
      inputTokens: entry.usage.inputTokens ?? 0,
      outputTokens: entry.usage.outputTokens ?? 0,
      costUsd: entry.costUsd,
      threadId: entry.threadId ?? null,
      messageId: entry.messageId ?? null,
      runId: entry.runId ?? null,
      createdAt: binding.clock(),
    }),
  );
  const labels = { purpose: entry.kind, model: entry.model };
  const { modelTokens, modelCost } = instruments();
  modelTokens.add(entry.usage.inputTokens ?? 0, { ...labels, direction: "input" });
  modelTokens.add(entry.usage.outputTokens ?? 0, { ...labels, direction: "output" });
  if (entry.costUsd !== null) modelCost.add(entry.costUsd, labels);
}

/** The UTC day `at` falls in, as [start, end). */
export function utcDay(at: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  return { start, end: new Date(start.getTime() + 86_400_000) };
}

/** What the user's model calls (of one kind, or all) cost and spent in tokens on the UTC day of `at`. */
async function dayTotals(
  binding: UserBinding,
  at: Date,
  kind?: UsageKind,
): Promise<{ costUsd: number; tokens: number }> {
  const { start, end } = utcDay(at);
  const [row] = await asUser(binding, ({ db }) =>
    db
      .select({
        costUsd: sql<number>`coalesce(sum(${modelUsage.costUsd}), 0)::float8`,
        tokens: sql<number>`coalesce(sum(${modelUsage.inputTokens} + ${modelUsage.outputTokens}), 0)::float8`,
      })
      .from(modelUsage)
      .where(
        and(
          eq(modelUsage.userId, binding.principal.userId),
          kind ? eq(modelUsage.kind, kind) : undefined,
          gte(modelUsage.createdAt, start),
          lt(modelUsage.createdAt, end),
        ),
      ),
  );
  return { costUsd: Number(row?.costUsd ?? 0), tokens: Number(row?.tokens ?? 0) };
}

/** What the user's model calls cost on the UTC day of `at`, chat and extraction together (unpriced calls count 0). */
export async function spentOnDay(binding: UserBinding, at: Date): Promise<number> {
  return (await dayTotals(binding, at)).costUsd;
}

/** The model tokens (in and out) the user's calls of one kind reported on the UTC day of `at`. */
export async function tokensOnDay(binding: UserBinding, kind: UsageKind, at: Date): Promise<number> {
  return (await dayTotals(binding, at, kind)).tokens;
}

export interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Sum of the priced calls. */
  costUsd: number;
  /** Calls of models without a price: their tokens are counted, their cost is not known. */
  unpricedCalls: number;
}

export interface DayUsage extends UsageTotals {
  /** YYYY-MM-DD, UTC. */
  date: string;
  byKind: Record<UsageKind, UsageTotals>;
}

const emptyTotals = (): UsageTotals => ({ calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 });

/**
 * The user's usage per UTC day from `from` through `to` (YYYY-MM-DD, both included), oldest first; days without a
 * call are left out.
 */
export async function dailyUsage(binding: UserBinding, range: { from: string; to: string }): Promise<DayUsage[]> {
  const start = new Date(`${range.from}T00:00:00.000Z`);
  const end = new Date(new Date(`${range.to}T00:00:00.000Z`).getTime() + 86_400_000);
  const day = sql<string>`to_char(${modelUsage.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await asUser(binding, ({ db }) =>
    db
      .select({
        date: day,
        kind: modelUsage.kind,
        calls: sql<number>`count(*)::float8`,
        inputTokens: sql<number>`sum(${modelUsage.inputTokens})::float8`,
        outputTokens: sql<number>`sum(${modelUsage.outputTokens})::float8`,
        costUsd: sql<number>`coalesce(sum(${modelUsage.costUsd}), 0)::float8`,
        unpricedCalls: sql<number>`(count(*) filter (where ${modelUsage.costUsd} is null))::float8`,
      })
      .from(modelUsage)
      .where(
        and(
          eq(modelUsage.userId, binding.principal.userId),
          gte(modelUsage.createdAt, start),
          lt(modelUsage.createdAt, end),
        ),
      )
      .groupBy(day, modelUsage.kind)
      .orderBy(day),
  );
  const days = new Map<string, DayUsage>();
  for (const row of rows) {
    let entry = days.get(row.date);
    if (!entry) {
      entry = { date: row.date, ...emptyTotals(), byKind: { chat: emptyTotals(), extraction: emptyTotals() } };
      days.set(row.date, entry);
    }
    const totals: UsageTotals = {
      calls: Number(row.calls),
      inputTokens: Number(row.inputTokens),
      outputTokens: Number(row.outputTokens),
      costUsd: Number(row.costUsd),
      unpricedCalls: Number(row.unpricedCalls),
    };
    entry.byKind[row.kind] = totals;
    for (const key of Object.keys(totals) as (keyof UsageTotals)[]) entry[key] += totals[key];
  }
  return [...days.values()];
}

/** What each of the given extraction runs cost over all its attempts; a run with an unpriced call has no known cost. */
export async function runCosts(
  binding: UserBinding,
  runIds: readonly string[],
): Promise<Map<string, { costUsd: number | null }>> {
  if (runIds.length === 0) return new Map();
  const rows = await asUser(binding, ({ db }) =>
    db
      .select({
        runId: modelUsage.runId,
        costUsd: sql<number>`coalesce(sum(${modelUsage.costUsd}), 0)::float8`,
        unpriced: sql<number>`(count(*) filter (where ${modelUsage.costUsd} is null))::float8`,
      })
      .from(modelUsage)
      .where(and(eq(modelUsage.userId, binding.principal.userId), inArray(modelUsage.runId, [...runIds])))
      .groupBy(modelUsage.runId),
  );
  return new Map(
    rows.map((row) => [row.runId as string, { costUsd: Number(row.unpriced) > 0 ? null : Number(row.costUsd) }]),
  );
}
