// Reading the consolidation model's answer op by op against the group it was shown: an op that cites no ids, ids not
// shown, or memories of another kind or namespace is rejected with its reason; the others go on to the gate.

import type { ConsolidationWrite } from "@/lib/memory/review";
import type { CandidateGroup, CandidateMemory } from "./candidates";
import { consolidationWireOpSchema } from "./prompt";

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OPS = new Set(["merge", "supersede", "expire"]);
/** Ids of one op kept in the run record at most. */
const GROUP_LIMIT = 50;

/** Ops applied from one group's answer at most; the rest are rejected one by one, naming the limit. */
export const MAX_GROUP_OPS = 20;

export interface RejectedConsolidationOp {
  /** The op as the model sent it, without its free text (a run record holds no memory words). */
  op: unknown;
  reason: string;
}

export interface ReadAnswer {
  writes: Array<{ write: ConsolidationWrite; cited: string[] }>;
  rejected: RejectedConsolidationOp[];
  /** Every id the answer cited, valid or not: those memories are not "kept apart" by this group. */
  cited: Set<string>;
}

/** The answer's ops, checked one by one; an answer that is no list of ops at all is one rejection. */
export function readAnswer(answer: unknown, group: CandidateGroup, now: Date): ReadAnswer {
  const value = typeof answer === "string" ? readJson(answer) : answer;
  const list = (value as { ops?: unknown } | null)?.ops;
  const out: ReadAnswer = { writes: [], rejected: [], cited: new Set() };
  if (!Array.isArray(list)) {
    out.rejected.push({ op: null, reason: 'the answer had no "ops" list of operations' });
    return out;
  }
  const shown = new Map(group.memories.map((memory) => [memory.id, memory]));
  const used = new Set<string>();
  list.forEach((raw, index) => {
    const recorded = redacted(raw);
    for (const id of citedIds(raw)) out.cited.add(id);
    if (index >= MAX_GROUP_OPS) {
      out.rejected.push({ op: recorded, reason: `over the limit of ${MAX_GROUP_OPS} ops for one group` });
      return;
    }
    const read = readOp(raw, shown, used, now);
    if ("reason" in read) out.rejected.push({ op: recorded, reason: read.reason });
    else {
      const ids = read.write.op === "merge" ? [read.write.into, ...read.write.from] : read.write.ids;
      for (const { id } of ids) used.add(id);
      out.writes.push({ write: read.write, cited: ids.map(({ id }) => id) });
    }
  });
  return out;
}

function readOp(
  raw: unknown,
  shown: Map<string, CandidateMemory>,
  used: Set<string>,
  now: Date,
): { write: ConsolidationWrite } | { reason: string } {
  const parsed = consolidationWireOpSchema.safeParse(withNulls(raw));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "op"}: ${issue.message}`);
    return { reason: `invalid op (${issues.join("; ")})` };
  }
  const op = parsed.data;
  if (op.ids.length === 0) return { reason: "the op cites no memory ids" };
  const cited = [...op.ids, ...(op.into ? [op.into] : [])];
  const unknown = cited.find((id) => !shown.has(id));
  if (unknown) return { reason: `cites memory ${unknown}, which was not shown in this group` };
  if (new Set(op.ids).size !== op.ids.length) return { reason: "cites a memory twice" };
  const again = cited.find((id) => used.has(id));
  if (again) return { reason: `memory ${again} is already changed by an earlier op of this answer` };
  const reason = (op.reason ?? `${op.op} by the consolidation pass`).slice(0, 500);
  const at = (id: string) => ({ id, version: shown.get(id)!.version });
  if (op.text !== null && op.op !== "merge") return { reason: `"text" is for a merge: this ${op.op} writes none` };
  if (op.op === "expire") {
    const validTo = op.validTo === null ? null : dayOf(op.validTo);
    if (!validTo) return { reason: 'an expire needs "validTo" as a date (YYYY-MM-DD)' };
    if (validTo.getTime() > now.getTime()) return { reason: "validTo is in the future: the fact still holds" };
    const early = op.ids.find((id) => (shown.get(id)!.validFrom?.getTime() ?? -Infinity) > validTo.getTime());
    if (early) return { reason: `validTo is before memory ${early} started to hold` };
    return { write: { op: "close", ids: op.ids.map(at), validTo, reason } };
  }
  if (!op.into) return { reason: `a ${op.op} needs "into": the memory that stands` };
  const into = shown.get(op.into)!;
  const others = op.ids.filter((id) => id !== op.into).map((id) => shown.get(id)!);
  if (others.length === 0) return { reason: `a ${op.op} needs another memory besides "into"` };
  const foreign = others.find((memory) => memory.kind !== into.kind || !sameNamespace(memory, into));
  if (foreign) {
    return { reason: `memory ${foreign.id} is of another kind or namespace than memory ${into.id}: not ${op.op}d` };
  }
  if (op.op === "merge") {
    const from = others.map((m) => at(m.id));
    if (op.text === null) return { write: { op: "merge", into: at(into.id), from, reason } };
    // A wording is a memory's text: a kind with fields of its own is merged as it stands.
    if (into.kind !== "memory") return { reason: `a merge of ${into.kind}s keeps the text of "into": no "text"` };
    if (op.text.trim() === "") return { reason: 'a merge\'s "text" is empty' };
    return { write: { op: "merge", into: at(into.id), from, reason, content: op.text } };
  }
  if (op.ids.includes(op.into))
    return { reason: 'a supersede lists the old memories in "ids", not the one that stands' };
  const since = into.validFrom ?? into.createdAt;
  const newer = others.find((memory) => (memory.validFrom ?? memory.createdAt).getTime() > since.getTime());
  if (newer) return { reason: `memory ${newer.id} is newer than memory ${into.id}, which would supersede it` };
  return {
    write: { op: "close", ids: others.map((m) => at(m.id)), validTo: since, reason, supersededBy: into.id },
  };
}

const sameNamespace = (a: CandidateMemory, b: CandidateMemory) =>
  a.namespace.length === b.namespace.length && a.namespace.every((segment, index) => segment === b.namespace[index]);

/** A date the model wrote, as the start of that UTC day; null when it is no date. */
function dayOf(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : date;
}

/** A field left out counts as null: lenient models omit what does not apply. */
function withNulls(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  return { into: null, validTo: null, reason: null, text: null, ...raw };
}

function citedIds(raw: unknown): string[] {
  const { ids, into } = (typeof raw === "object" && raw !== null ? raw : {}) as { ids?: unknown; into?: unknown };
  return [...(Array.isArray(ids) ? ids : []), into].filter((id): id is string => typeof id === "string");
}

/** The op's ids and dates only: the model's reason may restate a memory's words, which a run record never holds. */
function redacted(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return typeof raw;
  const { op, ids, into, validTo } = raw as Record<string, unknown>;
  const id = (value: unknown) => (typeof value === "string" && ID.test(value) ? value : typeof value);
  return {
    op: typeof op === "string" && OPS.has(op) ? op : typeof op,
    ids: Array.isArray(ids) ? ids.slice(0, GROUP_LIMIT).map(id) : typeof ids,
    into: into === null || into === undefined ? null : id(into),
    validTo: typeof validTo === "string" && /^\d{4}-\d{2}-\d{2}$/.test(validTo) ? validTo : null,
  };
}

function readJson(text: string): unknown {
  const start = text.search(/[[{]/);
  if (start < 0) return undefined;
  try {
    return JSON.parse(text.slice(start));
  } catch {
    return undefined;
  }
}
