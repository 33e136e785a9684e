import { z } from "zod";
import { LIMITS } from "@/lib/memory/contract";

/*
 * Two shapes. The *wire* schema is what the manager model is asked to answer: one flat object per op, every field
 * present and null where it does not apply, no unions, no untyped nodes, no bounds — the subset every provider's
 * strict structured-output mode accepts as it is (tests/providers/strict-schema.test.ts). The *op* schemas are what
 * the validator applies, bounds included; each wire op is checked against them on its own (parseManagerAnswer), so
 * one bad op is rejected with the field at fault while the others still apply.
 */

const nullable = <T extends z.ZodType>(schema: T, description: string) => schema.nullable().describe(description);

export const wireFieldSchema = z.strictObject({
  name: z.string().describe("A field of the kind's content, e.g. preference, subject, context, rule, when."),
  value: z.string().describe("The field's value."),
});

export const wireOpSchema = z.strictObject({
  op: z.enum(["insert", "update", "delete"]),
  id: nullable(z.string(), "update, delete: the id of an existing memory shown to you. insert: null."),
  // A plain integer type: `.int()` would add ±2^53 bounds that Anthropic's strict mode does not support.
  expectedVersion: nullable(
    z.number().meta({ type: "integer" }),
    "update: the version of that memory shown to you. insert, delete: null.",
  ),
  kind: nullable(z.string(), "insert: one of the allowed kinds. update, delete: null."),
  text: nullable(z.string(), "insert, update of a `memory`: its text, one self-contained statement. Otherwise null."),
  fields: nullable(
    z.array(wireFieldSchema),
    "insert, update of any other kind: its content as name/value pairs. Otherwise null.",
  ),
  messageId: nullable(z.string(), "The id of the user's message this op comes from."),
  quote: nullable(z.string(), "The exact words of that message that support (or, for a delete, ask for) this op."),
  reason: nullable(z.string(), "update, delete: why. insert: null."),
  validFrom: nullable(
    z.string(),
    "insert, update: the date (YYYY-MM-DD) the fact started to hold in the world, when the user says so; an update with validFrom supersedes: the old memory is kept, closed at that date, and a new one holds the new value. Otherwise null.",
  ),
  validTo: nullable(
    z.string(),
    "insert: the date (YYYY-MM-DD) the fact stopped holding, when the user says so. Otherwise null.",
  ),
});
export type WireOp = z.infer<typeof wireOpSchema>;

/** What the manager model is asked to answer: a list of ops, possibly empty. */
export const managerAnswerSchema = z.strictObject({ ops: z.array(wireOpSchema) });

const quote = z.string().trim().min(1).max(1_000);
const messageId = z.string().min(1).max(LIMITS.idChars);
const reason = z.string().trim().min(1).max(500);
const memoryId = z.string().min(1).max(100);
/** A date or date-time; kept as the string the model sent, for the run record. */
const instant = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: "expected an ISO date (YYYY-MM-DD) or date-time",
});

export const insertOpSchema = z.strictObject({
  op: z.literal("insert"),
  kind: z.string().min(1).max(LIMITS.kindChars),
  content: z.unknown(),
  messageId,
  quote,
  validFrom: instant.optional(),
  validTo: instant.optional(),
});

export const updateOpSchema = z.strictObject({
  op: z.literal("update"),
  id: memoryId,
  expectedVersion: z.number().int().positive(),
  content: z.unknown(),
  messageId,
  quote,
  reason,
  /** The fact changed in the world at this date: supersede (keep the old memory, closed) instead of rewriting it. */
  validFrom: instant.optional(),
});

export const deleteOpSchema = z.strictObject({
  op: z.literal("delete"),
  id: memoryId,
  messageId,
  quote,
  reason,
});

export const extractionOpSchema = z.discriminatedUnion("op", [insertOpSchema, updateOpSchema, deleteOpSchema]);
export type ExtractionOp = z.infer<typeof extractionOpSchema>;

/** Ops applied from one answer at most; the rest are rejected one by one, naming the limit. */
export const MAX_OPS = 50;
/** Proposed ops kept in a run's record: a runaway answer is summarised, not stored whole. */
const MAX_RECORDED = 200;

export interface RejectedOp {
  op: unknown;
  reason: string;
}

export interface AppliedOp {
  op: ExtractionOp["op"];
  memoryId: string;
  version: number;
  text: string;
  /** An update that superseded the memory (closed it with validTo): the new memory holding the new value. */
  supersededBy?: { memoryId: string; version: number; text: string };
}

/** An answer read op by op: the ops that can be applied, and each one that cannot with why. */
export interface ManagerAnswer {
  /** The ops as the model sent them (the first MAX_RECORDED), for the run record. */
  proposed: unknown[];
  ops: ExtractionOp[];
  rejected: RejectedOp[];
  /** Why nothing could be read from the answer at all (no JSON, no `ops` list), when that is the case. */
  unreadable?: string;
}

const WIRE_FIELDS = new Set(Object.keys(wireOpSchema.shape));

/**
 * Reads the manager's answer leniently: the parsed JSON when the provider returned it, else the raw text (fenced,
 * prefixed with prose, or cut off mid-list: every complete op before the cut is kept). Each op is validated on its
 * own; a rejection names the field or the limit at fault.
 */
export function parseManagerAnswer(answer: unknown): ManagerAnswer {
  const value = typeof answer === "string" ? readJsonLeniently(answer) : answer;
  const list = Array.isArray(value) ? value : (value as { ops?: unknown } | null)?.ops;
  if (!Array.isArray(list)) {
    return {
      proposed: [],
      ops: [],
      rejected: [],
      unreadable: value === undefined ? "the answer was not JSON" : 'the answer had no "ops" list of operations',
    };
  }
  const ops: ExtractionOp[] = [];
  const rejected: RejectedOp[] = [];
  list.forEach((raw, index) => {
    if (index >= MAX_RECORDED) return;
    if (index >= MAX_OPS) {
      rejected.push({ op: raw, reason: `over the limit of ${MAX_OPS} ops in one answer (op ${index + 1})` });
      return;
    }
    const read = readOp(raw);
    if ("op" in read) ops.push(read.op);
    else rejected.push({ op: raw, reason: read.reason });
  });
  if (list.length > MAX_RECORDED) {
    rejected.push({
      op: { omitted: list.length - MAX_RECORDED },
      reason: `over the limit of ${MAX_OPS} ops in one answer: ${list.length - MAX_RECORDED} more not recorded`,
    });
  }
  return { proposed: list.slice(0, MAX_RECORDED), ops, rejected };
}

function readOp(raw: unknown): { op: ExtractionOp } | { reason: string } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { reason: "the op is not an object" };
  const fields = raw as Record<string, unknown>;
  const unexpected = Object.keys(fields).filter((name) => !WIRE_FIELDS.has(name));
  if (unexpected.length > 0) {
    return { reason: `unexpected field${unexpected.length > 1 ? "s" : ""} ${unexpected.map(quoted).join(", ")}` };
  }
  // A field left out counts as null: lenient models omit what does not apply.
  const wire = wireOpSchema.safeParse(
    Object.fromEntries([...WIRE_FIELDS].map((name) => [name, fields[name] === undefined ? null : fields[name]])),
  );
  if (!wire.success) return { reason: `invalid op (${issuesOf(wire.error)})` };
  const op = wire.data;
  const content = contentOf(op);
  if ("reason" in content) return content;
  const given = (value: unknown) => (value === null ? undefined : value);
  const candidate =
    op.op === "insert"
      ? {
          op: op.op,
          kind: given(op.kind),
          content: content.value,
          messageId: given(op.messageId),
          quote: given(op.quote),
          validFrom: given(op.validFrom),
          validTo: given(op.validTo),
        }
      : op.op === "update"
        ? {
            op: op.op,
            id: given(op.id),
            expectedVersion: given(op.expectedVersion),
            content: content.value,
            messageId: given(op.messageId),
            quote: given(op.quote),
            reason: given(op.reason),
            validFrom: given(op.validFrom),
          }
        : {
            op: op.op,
            id: given(op.id),
            messageId: given(op.messageId),
            quote: given(op.quote),
            reason: given(op.reason),
          };
  const parsed = extractionOpSchema.safeParse(candidate);
  if (parsed.success) return { op: parsed.data };
  return { reason: `invalid ${op.op} op (${issuesOf(parsed.error)})` };
}

function contentOf(op: WireOp): { value: unknown } | { reason: string } {
  if (op.op === "delete") return { value: undefined };
  if (op.fields !== null && op.text !== null) return { reason: 'invalid op (give "text" or "fields", not both)' };
  if (op.fields !== null) {
    const names = op.fields.map((field) => field.name);
    if (new Set(names).size !== names.length) return { reason: 'invalid op ("fields" repeat a name)' };
    return { value: Object.fromEntries(op.fields.map((field) => [field.name, field.value])) };
  }
  if (op.text !== null) return { value: { content: op.text } };
  return { reason: `invalid ${op.op} op ("text" or "fields": the content is missing)` };
}

function issuesOf(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? quoted(issue.path.join(".")) : "op"}: ${issue.message}`)
    .join("; ");
}

const quoted = (name: string) => `"${name}"`;

/**
 * JSON from a model's text: as it is, inside a ```json fence, after a line of prose, or cut off — then the `ops`
 * objects that were complete. Undefined when there is no JSON at all.
 */
function readJsonLeniently(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)(?:```|$)/i.exec(text)?.[1];
  for (const candidate of [text, fenced]) {
    if (candidate === undefined) continue;
    const start = candidate.search(/[[{]/);
    if (start < 0) continue;
    try {
      return JSON.parse(candidate.slice(start));
    } catch {
      const salvaged = completeOps(candidate.slice(start));
      if (salvaged) return { ops: salvaged };
    }
  }
  return undefined;
}

/** The complete top-level objects of the first JSON array in `text`, however the text ends. */
function completeOps(text: string): unknown[] | undefined {
  const open = text.indexOf("[");
  if (open < 0) return undefined;
  const found: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = open + 1; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (char === "}") {
      depth--;
      if (depth === 0 && start >= 0) {
        try {
          found.push(JSON.parse(text.slice(start, i + 1)));
        } catch {
          return found.length ? found : undefined;
        }
        start = -1;
      }
    } else if (char === "]" && depth === 0) break;
  }
  return found.length ? found : undefined;
}

/** An op in the wire shape the manager answers in (what a model that follows the schema sends). */
export function toWireOp(op: ExtractionOp): WireOp {
  const wire: WireOp = {
    op: op.op,
    id: null,
    expectedVersion: null,
    kind: null,
    text: null,
    fields: null,
    messageId: op.messageId,
    quote: op.quote,
    reason: null,
    validFrom: null,
    validTo: null,
  };
  if (op.op === "delete") return { ...wire, id: op.id, reason: op.reason };
  const content = (typeof op.content === "object" && op.content !== null ? op.content : {}) as Record<string, unknown>;
  const names = Object.keys(content);
  const asText = names.length === 1 && names[0] === "content" && typeof content.content === "string";
  const shaped =
    typeof op.content === "string"
      ? { text: op.content }
      : asText
        ? { text: content.content as string }
        : {
            fields: names.map((name) => ({
              name,
              value: typeof content[name] === "string" ? (content[name] as string) : JSON.stringify(content[name]),
            })),
          };
  if (op.op === "insert") {
    return { ...wire, kind: op.kind, ...shaped, validFrom: op.validFrom ?? null, validTo: op.validTo ?? null };
  }
  return {
    ...wire,
    id: op.id,
    expectedVersion: op.expectedVersion,
    reason: op.reason,
    ...shaped,
    validFrom: op.validFrom ?? null,
  };
}
