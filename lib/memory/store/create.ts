import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { rowsFromDriver, valuesInsert } from "@/lib/db/bulk";
import { memories } from "@/lib/db/schema";
import { asUser, type UnitOfWork } from "@/lib/db/unit-of-work";
import { AppError, parseInput } from "@/lib/errors";
import { type CreateMemoryInput, createMemoryInputSchema } from "@/lib/memory/contract";
import {
  absoluteNamespace,
  factKey,
  MemoryConflictError,
  type MemoryContext,
  type PreparedContent,
  prepareContent,
  textArray,
} from "@/lib/memory/core";
import { insertCountedTogether } from "./bulk-statistics";
import { admitActivated, newlyActive } from "./quota";
import { checkValidity, kindsOf, type MemoryRow, toMemory } from "./rows";
import { brokenRule, RuleViolationError, rulesThatBind } from "./rules";
import type { Memory } from "./types";
import {
  appendVersions,
  applyContentChange,
  contentColumns,
  embedOnCommit,
  INSERT_CHUNK,
  lockRow,
  revive,
  writerColumns,
} from "./versioned-writes";

/** Writes one memory (one transaction, version 1). For a kind with a fixed key (profile) an existing one is updated. */
export async function createMemory(ctx: MemoryContext, raw: CreateMemoryInput): Promise<Memory> {
  const [memory] = await createMemories(ctx, [raw]);
  return memory as Memory;
}

/** Writes several memories in one transaction (one multi-row insert per table); the first invalid one fails them all. */
export async function createMemories(ctx: MemoryContext, raws: readonly CreateMemoryInput[]): Promise<Memory[]> {
  const { created, rejected } = await writeNewMemories(ctx, raws, "throw");
  if (rejected[0]) throw rejected[0].error;
  return created.map((entry) => entry.memory);
}

/**
 * Writes a memory unless the user already has the same fact: an active memory of the same kind in the same namespace
 * whose text differs at most in case, spacing and punctuation ("The user plays the cello." / "the user plays the
 * cello"). Then nothing is written and that memory is returned. What agents and the manager use, so a model that
 * repeats a create (or sends the same create twice at once) leaves one memory.
 */
export async function createMemoryOnce(
  ctx: MemoryContext,
  raw: CreateMemoryInput,
): Promise<{ memory: Memory; created: boolean }> {
  const { created, rejected, existing } = await writeNewMemories(ctx, [raw], "throw", "reuse");
  if (rejected[0]) throw rejected[0].error;
  if (existing[0]) return { memory: existing[0].memory, created: false };
  return { memory: created[0]!.memory, created: true };
}

/**
 * The user's active memory already stating what `raw` would write (see createMemoryOnce), or null: what a proposal
 * is checked against, so review never asks about a fact the user already has.
 */
export async function existingFact(ctx: MemoryContext, raw: CreateMemoryInput): Promise<Memory | null> {
  const input = parseInput(createMemoryInputSchema, raw);
  const kind = input.kind ?? "memory";
  if (kindsOf(ctx).get(kind).singletonKey) return null;
  const item = {
    kind,
    namespace: absoluteNamespace(ctx.principal.root, input.namespace ?? []),
    content: prepareContent(kindsOf(ctx), kind, input.content),
  };
  const row = await asUser(ctx, (unit) => sameFact(unit, item));
  return row ? toMemory(ctx, row) : null;
}

export interface BatchOutcome {
  /** The memories written, in input order, each with its position in the input. */
  created: Array<{ index: number; memory: Memory }>;
  /** The items not written, by position, with why. */
  rejected: Array<{ index: number; error: AppError }>;
}

/**
 * A batch write: every valid item is written in one transaction, and each invalid one (a schema or limit broken, a
 * key already taken, also by an earlier item of the batch) is reported by its position and writes nothing.
 */
export function createMemoryBatch(ctx: MemoryContext, raws: readonly CreateMemoryInput[]): Promise<BatchOutcome> {
  return writeNewMemories(ctx, raws, "report");
}

/** One item of a create, validated and prepared, with its position in the input. */
interface NewItem {
  index: number;
  input: z.output<typeof createMemoryInputSchema>;
  kind: string;
  singletonKey: string | undefined;
  content: PreparedContent;
  namespace: string[];
}

/** Refuses one item of a create: throws, or records it for the batch's report. */
type Reject = (index: number, error: unknown) => void;

type Candidate = ReturnType<typeof candidateRow>;

async function writeNewMemories(
  ctx: MemoryContext,
  raws: readonly CreateMemoryInput[],
  onItemError: "throw" | "report",
  onSameFact: "write" | "reuse" = "write",
): Promise<BatchOutcome & { existing: Array<{ index: number; memory: Memory }> }> {
  const rejected: BatchOutcome["rejected"] = [];
  const reject: Reject = (index, error) => {
    if (onItemError === "throw" || !(error instanceof AppError)) throw error;
    rejected.push({ index, error });
  };
  const prepared = prepareItems(ctx, raws, reject);
  const existing: Array<{ index: number; memory: Memory }> = [];
  const created = await asUser(ctx, async (unit) => {
    await unit.serializeUserWrites();
    const screened = await screenItems(ctx, unit, prepared, reject, onSameFact);
    existing.push(...screened.existing);
    const candidates = screened.fresh.map((item) => candidateRow(ctx, item));
    await admitActivated(ctx, unit, await newlyActive(ctx, unit, candidates));
    const inserted = await insertCandidates(unit, candidates);
    await appendVersions(
      ctx,
      unit,
      candidates.flatMap(({ item, row }) => {
        const written = inserted.get(row.id);
        return written ? [{ row: written, reason: item.input.reason }] : [];
      }),
      "create",
    );
    const written = await settleCandidates(ctx, unit, candidates, inserted, reject);
    embedOnCommit(
      ctx,
      unit,
      written.map((entry) => entry.row),
    );
    return written.map((entry) => ({ index: entry.index, memory: toMemory(ctx, entry.row) }));
  });
  return { created, rejected: rejected.sort((a, b) => a.index - b.index), existing };
}

/** Each item parsed, checked and its content prepared; an invalid one is refused and left out. */
function prepareItems(ctx: MemoryContext, raws: readonly CreateMemoryInput[], reject: Reject): NewItem[] {
  return raws.flatMap((raw, index) => {
    try {
      const input = parseInput(createMemoryInputSchema, raw);
      checkValidity(input.validFrom ?? null, input.validTo ?? null);
      const kind = input.kind ?? "memory";
      const definition = kindsOf(ctx).get(kind);
      return [
        {
          index,
          input,
          kind,
          singletonKey: definition.singletonKey,
          content: prepareContent(kindsOf(ctx), kind, input.content),
          namespace: absoluteNamespace(ctx.principal.root, input.namespace ?? []),
        },
      ];
    } catch (error) {
      reject(index, error);
      return [];
    }
  });
}

/**
 * Under the writer lock: an item breaking one of the user's rules is refused; with `reuse`, one stating a fact the user
 * already has is answered with that memory. The rest are to be written.
 */
async function screenItems(
  ctx: MemoryContext,
  unit: UnitOfWork,
  prepared: readonly NewItem[],
  reject: Reject,
  onSameFact: "write" | "reuse",
): Promise<{ fresh: NewItem[]; existing: Array<{ index: number; memory: Memory }> }> {
  const rules = await rulesThatBind(ctx, unit);
  const fresh: NewItem[] = [];
  const existing: Array<{ index: number; memory: Memory }> = [];
  for (const item of prepared) {
    const broken = brokenRule(rules, item.content.text);
    if (broken) {
      reject(item.index, new RuleViolationError(broken.rule, broken.term));
      continue;
    }
    const same = onSameFact === "reuse" && !item.singletonKey ? await sameFact(unit, item) : undefined;
    if (same) existing.push({ index: item.index, memory: toMemory(ctx, same) });
    else fresh.push(item);
  }
  return { fresh, existing };
}

/** The row an item would be written as, at version 1. */
function candidateRow(ctx: MemoryContext, item: NewItem) {
  const now = ctx.clock();
  const id = crypto.randomUUID();
  return {
    item,
    row: {
      userId: ctx.principal.userId,
      id,
      namespace: item.namespace,
      key: item.singletonKey ?? item.input.key ?? id,
      kind: item.kind,
      ...contentColumns(item.content),
      status: "active" as const,
      version: 1,
      metadata: item.input.metadata ?? {},
      pinned: item.input.pinned ?? false,
      validFrom: item.input.validFrom ?? null,
      validTo: item.input.validTo ?? null,
      ...writerColumns(ctx, item.input.provenance),
      createdAt: now,
      updatedAt: now,
    },
  };
}

/** One multi-row insert per chunk; a row whose key is taken is not inserted. Returns the inserted rows by id. */
async function insertCandidates(unit: UnitOfWork, candidates: readonly Candidate[]): Promise<Map<string, MemoryRow>> {
  const inserted = new Map<string, MemoryRow>();
  for (let from = 0; from < candidates.length; from += INSERT_CHUNK) {
    const part = candidates.slice(from, from + INSERT_CHUNK);
    const insert = valuesInsert(
      memories,
      part.map((candidate) => candidate.row),
      "on conflict do nothing returning *",
    );
    const rows = await insertCountedTogether(
      unit,
      part.length,
      async () => rowsFromDriver(memories, await unit.query(insert.text, insert.parameters)),
      (row) => row.id,
    );
    for (const row of rows) inserted.set(row.id, row);
  }
  return inserted;
}

/**
 * What each candidate became, in input order: its inserted row; for a one-per-namespace document already there, that
 * document written again in place; for any other key already taken, a refusal.
 */
async function settleCandidates(
  ctx: MemoryContext,
  unit: UnitOfWork,
  candidates: readonly Candidate[],
  inserted: ReadonlyMap<string, MemoryRow>,
  reject: Reject,
): Promise<Array<{ index: number; row: MemoryRow }>> {
  const written: Array<{ index: number; row: MemoryRow }> = [];
  for (const { item, row } of candidates) {
    const created = inserted.get(row.id);
    if (created) {
      written.push({ index: item.index, row: created });
      continue;
    }
    if (!item.singletonKey) {
      reject(
        item.index,
        new MemoryConflictError(`A memory with key "${item.input.key}" already exists in this namespace.`),
      );
      continue;
    }
    written.push({ index: item.index, row: await rewriteSingleton(ctx, unit, item, item.singletonKey) });
  }
  return written;
}

/** The namespace's one document of this kind (profile), written again with the item's content. */
async function rewriteSingleton(
  ctx: MemoryContext,
  unit: UnitOfWork,
  item: NewItem,
  singletonKey: string,
): Promise<MemoryRow> {
  const existing = await lockRow(
    unit.db,
    and(
      eq(memories.userId, ctx.principal.userId),
      sql`${memories.namespace} = ${textArray(item.namespace)}`,
      eq(memories.key, singletonKey),
    ) as SQL,
  );
  if (!existing) throw new MemoryConflictError("The memory changed concurrently; retry.");
  // Writing the one-per-namespace document again after it was deleted (or purged) brings it back.
  const live = existing.status === "deleted" ? await revive(ctx, unit, existing) : existing;
  return applyContentChange(ctx, unit, live, {
    kind: item.kind,
    content: item.content,
    metadata: item.input.metadata ?? existing.metadata,
    pinned: item.input.pinned ?? existing.pinned,
    validFrom: item.input.validFrom === undefined ? existing.validFrom : item.input.validFrom,
    validTo: item.input.validTo === undefined ? existing.validTo : item.input.validTo,
    reason: item.input.reason,
    provenance: item.input.provenance,
  });
}

/** The user's active memory stating the same fact as `item` (see createMemoryOnce), under the writer lock. */
async function sameFact(
  unit: UnitOfWork,
  item: { kind: string; namespace: string[]; content: PreparedContent },
): Promise<MemoryRow | undefined> {
  const wanted = factKey(item.content.text);
  // Equal facts have equal full-text lexemes; the hash covers stop-word texts. The query's lexemes are parsed once,
  // in a subquery: a writer's unit is planned generically on PGlite (lib/db/unit-of-work.ts), and a generic plan
  // parsed the text again for every row it filtered (docs/performance.md, "What keeps search fast").
  const candidates = await unit.db
    .select()
    .from(memories)
    .where(
      and(
        eq(memories.userId, unit.userId),
        eq(memories.status, "active"),
        eq(memories.kind, item.kind),
        sql`${memories.namespace} = ${textArray(item.namespace)}`,
        sql`(${memories.contentHash} = ${item.content.contentHash}
             or ${memories.fts} @@ (select plainto_tsquery('english', ${item.content.text})))`,
      ),
    )
    .orderBy(desc(memories.updatedAt))
    .limit(50);
  return candidates.find((row) => row.text !== null && factKey(row.text) === wanted);
}
