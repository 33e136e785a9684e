import { and, asc, count, eq } from "drizzle-orm";
import { memoryRules } from "@/lib/db/schema";
import { asUser, type UnitOfWork, type UserBinding } from "@/lib/db/unit-of-work";
import { AppError, parseInput } from "@/lib/errors";
import { type CreateRuleInput, createRuleInputSchema, LIMITS, type RuleJson, words } from "@/lib/memory/contract";
import type { MemoryContext } from "@/lib/memory/core";

type RuleRow = typeof memoryRules.$inferSelect;

export interface Rule {
  id: string;
  text: string;
  terms: string[];
  createdAt: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Absent, or not the caller's: indistinguishable, like memories. */
export class RuleNotFoundError extends AppError {
  constructor(id: string) {
    super("not_found", `No rule with id ${id}.`);
    this.name = "RuleNotFoundError";
  }
}

/** A write the user's rule forbids; the message names the rule, for the model, the run record and the caller. */
export class RuleViolationError extends AppError {
  constructor(
    readonly rule: Rule,
    readonly term: string,
  ) {
    super("unprocessable", `Not remembered: it breaks the user's rule "${rule.text}" (it mentions "${term}").`, [
      { path: ["content"], message: `matches rule ${rule.id}` },
    ]);
    this.name = "RuleViolationError";
  }
}

export async function createRule(binding: UserBinding, raw: CreateRuleInput): Promise<Rule> {
  const input = parseInput(createRuleInputSchema, raw);
  const terms = [...new Set((input.terms ?? []).map((value) => words(value).join(" ")))];
  return asUser(binding, async ({ db }) => {
    const [held] = await db
      .select({ n: count() })
      .from(memoryRules)
      .where(eq(memoryRules.userId, binding.principal.userId));
    if ((held?.n ?? 0) >= LIMITS.rulesPerUser) {
      throw new AppError("unprocessable", `You can keep at most ${LIMITS.rulesPerUser} rules; delete one first.`);
    }
    const [row] = await db
      .insert(memoryRules)
      .values({ userId: binding.principal.userId, text: input.text, terms })
      .returning();
    return toRule(row as RuleRow);
  });
}

/** The caller's rules, oldest first (a user keeps at most LIMITS.rulesPerUser, so one page). */
export async function listRules(binding: UserBinding): Promise<Rule[]> {
  const rows = await asUser(binding, ({ db }) =>
    db
      .select()
      .from(memoryRules)
      .where(eq(memoryRules.userId, binding.principal.userId))
      .orderBy(asc(memoryRules.createdAt), asc(memoryRules.id)),
  );
  return rows.map(toRule);
}

export async function deleteRule(binding: UserBinding, id: string): Promise<Rule> {
  if (!UUID.test(id)) throw new RuleNotFoundError(id);
  const [row] = await asUser(binding, ({ db }) =>
    db
      .delete(memoryRules)
      .where(and(eq(memoryRules.userId, binding.principal.userId), eq(memoryRules.id, id)))
      .returning(),
  );
  if (!row) throw new RuleNotFoundError(id);
  return toRule(row);
}

/**
 * Refuses a write whose text breaks one of the user's rules. The person's own writes (console, their session) are
 * exempt: a rule binds the models and the apps that write for them, not the user's own hand.
 */
export async function enforceRules(ctx: MemoryContext, unit: UnitOfWork, texts: readonly string[]): Promise<void> {
  const rules = texts.length === 0 ? [] : await rulesThatBind(ctx, unit);
  for (const text of texts) {
    const broken = brokenRule(rules, text);
    if (broken) throw new RuleViolationError(broken.rule, broken.term);
  }
}

/** The rules the context's writer must obey: none for the person themselves. */
export async function rulesThatBind(ctx: MemoryContext, unit: UnitOfWork): Promise<Rule[]> {
  if (ctx.actor.type === "user" || ctx.actor.type === "admin") return [];
  return listRules({ ...ctx, unit });
}

/** The first rule one of whose terms occurs in `text` as whole words ("health" in "my health plan", not "healthy"). */
export function brokenRule(rules: readonly Rule[], text: string): { rule: Rule; term: string } | null {
  const content = words(text);
  for (const rule of rules) {
    for (const value of rule.terms) {
      const wanted = words(value);
      if (wanted.length > 0 && occursIn(content, wanted)) return { rule, term: value };
    }
  }
  return null;
}

/** Fields of a proposed op that say what it is and where it came from, not what it would remember. */
const IDENTIFYING_FIELDS = new Set(["op", "id", "messageId", "kind", "expectedVersion"]);

/**
 * An op as a model proposed it, for a run's record: whole, or — when its words break one of the user's rules — only
 * its kind of change, ids and the rule it broke, so the record never keeps what the user forbade remembering.
 */
export function withoutForbiddenWords(op: unknown, rules: readonly Rule[]): unknown {
  if (rules.length === 0 || !op || typeof op !== "object" || Array.isArray(op)) return op;
  const fields = op as Record<string, unknown>;
  const texts = Object.entries(fields)
    .filter(([name]) => !IDENTIFYING_FIELDS.has(name))
    .flatMap(([, value]) => stringLeaves(value));
  const broken = texts.map((text) => brokenRule(rules, text)).find((found) => found !== null);
  if (!broken) return op;
  return {
    op: fields.op,
    ...(typeof fields.id === "string" ? { id: fields.id } : {}),
    ...(typeof fields.messageId === "string" ? { messageId: fields.messageId } : {}),
    ruleId: broken.rule.id,
  };
}

function stringLeaves(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringLeaves);
  return [];
}

function occursIn(content: string[], wanted: string[]): boolean {
  for (let start = 0; start + wanted.length <= content.length; start++) {
    if (wanted.every((word, offset) => sameWord(content[start + offset] as string, word))) return true;
  }
  return false;
}

/** A plural or possessive of the term counts too ("allergies" for "allergy", "doctors" for "doctor"). */
function sameWord(word: string, term: string): boolean {
  if (word === term) return true;
  const forms = [`${term}s`, `${term}es`];
  if (term.endsWith("y")) forms.push(`${term.slice(0, -1)}ies`);
  return forms.includes(word);
}

function toRule(row: RuleRow): Rule {
  return { id: row.id, text: row.text, terms: row.terms, createdAt: row.createdAt };
}

export function serializeRule(rule: Rule): RuleJson {
  return { id: rule.id, text: rule.text, terms: rule.terms, createdAt: rule.createdAt.toISOString() };
}
