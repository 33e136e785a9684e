import { and, desc, eq } from "drizzle-orm";
import { instructionVersions } from "@/lib/db/schema";
import { asUser, type UnitOfWork, type UserBinding } from "@/lib/db/unit-of-work";
import { AppError, parseInput } from "@/lib/errors";
import {
  type INSTRUCTION_AUTHORS,
  type InstructionsJson,
  type InstructionVersionJson,
  LIMITS,
  type PutInstructionsInput,
  putInstructionsInputSchema,
} from "@/lib/memory/contract";

type VersionRow = typeof instructionVersions.$inferSelect;
export type InstructionAuthor = (typeof INSTRUCTION_AUTHORS)[number];

export interface InstructionVersion {
  version: number;
  text: string;
  changedBy: { type: InstructionAuthor; id: string };
  reason: string;
  feedbackIds: string[];
  runId: string | null;
  proposalId: string | null;
  createdAt: Date;
}

/** A new text of the instructions and who writes it, why, and on what grounds. */
export interface InstructionsChange {
  text: string;
  /** The version the writer saw (0: none yet); another version since is a conflict. */
  expectedVersion?: number;
  changedBy: { type: InstructionAuthor; id: string };
  reason: string;
  feedbackIds?: readonly string[];
  runId?: string;
  proposalId?: string;
}

type Binding = UserBinding & { clock: () => Date };

export class InstructionsConflictError extends AppError {
  constructor(expected: number, current: InstructionVersion | null) {
    super(
      "conflict",
      `Expected instructions version ${expected}, but they are at version ${current?.version ?? 0}: reload and edit again.`,
      [],
      { body: { instructions: current ? serializeInstructions(current) : null } },
    );
    this.name = "InstructionsConflictError";
  }
}

export class InstructionVersionNotFoundError extends AppError {
  constructor(version: number) {
    super("not_found", `No instructions version ${version}.`);
    this.name = "InstructionVersionNotFoundError";
  }
}

/** The current instructions (the highest version), or null for a user who never had any. */
export async function currentInstructions(binding: UserBinding): Promise<InstructionVersion | null> {
  const [row] = await asUser(binding, ({ db }) =>
    db
      .select()
      .from(instructionVersions)
      .where(eq(instructionVersions.userId, binding.principal.userId))
      .orderBy(desc(instructionVersions.version))
      .limit(1),
  );
  return row ? toVersion(row) : null;
}

/** Every version, newest first. Instructions are one short text, so the history is one page. */
export async function instructionHistory(binding: UserBinding): Promise<InstructionVersion[]> {
  const rows = await asUser(binding, ({ db }) =>
    db
      .select()
      .from(instructionVersions)
      .where(eq(instructionVersions.userId, binding.principal.userId))
      .orderBy(desc(instructionVersions.version)),
  );
  return rows.map(toVersion);
}

/** A hand edit by the user. The same text as now makes no new version. */
export async function putInstructions(binding: Binding, raw: PutInstructionsInput): Promise<InstructionVersion> {
  const input = parseInput(putInstructionsInputSchema, raw);
  return changeInstructions(binding, {
    text: input.text,
    expectedVersion: input.expectedVersion,
    changedBy: { type: "user", id: binding.principal.userId },
    reason: input.reason ?? "edited by hand",
  });
}

/** Makes an earlier version's text current again, as a new version by the user. */
export async function revertInstructions(binding: Binding, version: number): Promise<InstructionVersion> {
  const [row] = await asUser(binding, ({ db }) =>
    db
      .select()
      .from(instructionVersions)
      .where(and(eq(instructionVersions.userId, binding.principal.userId), eq(instructionVersions.version, version))),
  );
  if (!row) throw new InstructionVersionNotFoundError(version);
  return changeInstructions(binding, {
    text: row.text,
    changedBy: { type: "user", id: binding.principal.userId },
    reason: `reverted to version ${version}`,
  });
}

/** Writes a new version, serialized with the user's other writes so two edits never take the same number. */
export async function changeInstructions(binding: Binding, change: InstructionsChange): Promise<InstructionVersion> {
  if (change.text.length > LIMITS.instructionsChars) {
    throw new AppError("unprocessable", `Instructions are at most ${LIMITS.instructionsChars} characters.`, [
      { path: ["text"], message: "too long" },
    ]);
  }
  return asUser(binding, async (unit) => {
    await unit.serializeUserWrites();
    const current = await latest(unit);
    if (change.expectedVersion !== undefined && change.expectedVersion !== (current?.version ?? 0)) {
      throw new InstructionsConflictError(change.expectedVersion, current);
    }
    if (current && current.text === change.text) return current;
    const [row] = await unit.db
      .insert(instructionVersions)
      .values({
        userId: unit.userId,
        version: (current?.version ?? 0) + 1,
        text: change.text,
        actorType: change.changedBy.type,
        actorId: change.changedBy.id,
        reason: change.reason.slice(0, LIMITS.reasonChars),
        feedbackIds: [...(change.feedbackIds ?? [])],
        runId: change.runId ?? null,
        proposalId: change.proposalId ?? null,
        createdAt: binding.clock(),
      })
      .returning();
    return toVersion(row as VersionRow);
  });
}

async function latest(unit: UnitOfWork): Promise<InstructionVersion | null> {
  const [row] = await unit.db
    .select()
    .from(instructionVersions)
    .where(eq(instructionVersions.userId, unit.userId))
    .orderBy(desc(instructionVersions.version))
    .limit(1);
  return row ? toVersion(row) : null;
}

/**
 * The lines the user wrote themselves and that still stand: the optimizer keeps these unless feedback asks to change
 * them. A line counts as the user's when the newest version by the user has it.
 */
export function handWrittenLines(history: readonly InstructionVersion[]): string[] {
  const current = history[0];
  const byUser = history.find((version) => version.changedBy.type === "user");
  if (!current || !byUser) return [];
  const standing = new Set(linesOf(current.text));
  return linesOf(byUser.text).filter((line) => standing.has(line));
}

export function linesOf(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

function toVersion(row: VersionRow): InstructionVersion {
  return {
    version: row.version,
    text: row.text,
    changedBy: { type: row.actorType as InstructionAuthor, id: row.actorId },
    reason: row.reason,
    feedbackIds: row.feedbackIds,
    runId: row.runId,
    proposalId: row.proposalId,
    createdAt: row.createdAt,
  };
}

export function serializeInstructions(version: InstructionVersion): InstructionsJson {
  return { text: version.text, version: version.version, updatedAt: version.createdAt.toISOString() };
}

export function serializeInstructionVersion(version: InstructionVersion): InstructionVersionJson {
  return {
    version: version.version,
    text: version.text,
    changedBy: version.changedBy,
    reason: version.reason,
    feedbackIds: version.feedbackIds,
    ...(version.runId ? { runId: version.runId } : {}),
    ...(version.proposalId ? { proposalId: version.proposalId } : {}),
    createdAt: version.createdAt.toISOString(),
  };
}
