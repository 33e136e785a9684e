import { z } from "zod";
import { LIMITS } from "@/lib/memory/contract";
import { linesOf } from "@/lib/memory/procedural";
import type { OptimizerInput } from "./prompt";

/** A proposal that passed validation: the new text, why, and the feedback it acts on. */
export interface CheckedChange {
  text: string;
  reason: string;
  feedbackIds: string[];
}

export type Verdict =
  | { kind: "change"; change: CheckedChange }
  | { kind: "unchanged"; reason: string }
  | { kind: "rejected"; reasons: string[] };

const bounded = z.strictObject({
  change: z.boolean(),
  text: z.string().max(LIMITS.instructionsChars),
  reason: z.string().trim().min(1).max(500),
  feedbackIds: z.array(z.string().max(100)).max(100),
  droppedLines: z.array(z.string().max(LIMITS.instructionsChars)).max(50).default([]),
});

/**
 * Reads and checks the model's answer against what it was shown, like the manager's ops: it may cite only feedback
 * it was shown, must cite some to change anything, and keeps the user's hand-written lines unless it names them as
 * dropped on the word of a cited comment. A failing answer changes nothing; the run records why.
 */
export function checkAnswer(raw: unknown, input: OptimizerInput): Verdict {
  const value = typeof raw === "string" ? readJson(raw) : raw;
  const parsed = bounded.safeParse(value);
  if (!parsed.success) {
    return {
      kind: "rejected",
      reasons: parsed.error.issues.map((issue) => `${issue.path.join(".") || "answer"}: ${issue.message}`),
    };
  }
  const answer = parsed.data;
  const shown = new Map(input.feedback.map((item) => [item.id, item]));
  const unknown = answer.feedbackIds.filter((id) => !shown.has(id));
  if (unknown.length > 0) {
    return { kind: "rejected", reasons: [`cites feedback it was not shown: ${unknown.join(", ")}`] };
  }
  const text = linesOf(answer.text).join("\n");
  if (!answer.change || text === linesOf(input.current.text).join("\n")) {
    return { kind: "unchanged", reason: answer.reason };
  }
  const reasons: string[] = [];
  if (answer.feedbackIds.length === 0) reasons.push("changes the instructions without citing any feedback");
  const kept = new Set(linesOf(text));
  const dropped = new Set(answer.droppedLines.map((line) => line.trim()));
  const cited = answer.feedbackIds.map((id) => shown.get(id));
  const asked = cited.some((item) => item?.comment);
  for (const line of input.current.handWritten) {
    if (kept.has(line)) continue;
    if (!dropped.has(line)) reasons.push(`drops the user's own line "${line}" without saying so`);
    else if (!asked) reasons.push(`drops the user's own line "${line}" though no cited comment asks for it`);
  }
  if (reasons.length > 0) return { kind: "rejected", reasons };
  return { kind: "change", change: { text, reason: answer.reason, feedbackIds: [...new Set(answer.feedbackIds)] } };
}

function readJson(text: string): unknown {
  const unfenced = text
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/```$/, "");
  try {
    return JSON.parse(unfenced);
  } catch {
    return null;
  }
}
