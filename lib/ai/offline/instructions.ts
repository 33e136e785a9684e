import type { OptimizerAnswer, OptimizerInput } from "@/lib/memory/optimizer";

/** Phrases that complain about length, and the plain rule each asks for. */
const COMPLAINTS: Array<[RegExp, string]> = [
  [/\b(too long|too verbose|too wordy|too much text|shorter|more concise|be brief)\b/, "keep answers short"],
  [/\b(too short|more detail|more details)\b/, "give more detail"],
];
/** A clause that already reads as a rule: an imperative about how to answer. */
const IMPERATIVE =
  /^(?:please\s+)?((?:use|avoid|don't|do not|never|always|keep|write|answer|give|include|stop|prefer|reply|respond|be|no)\b.*)$/;

/**
 * The offline optimizer: every comment is read clause by clause, and the clauses that complain ("too long") or
 * instruct ("use bullet points") become one plain rule, added as a line unless the instructions already have it.
 * It never drops a line and cites exactly the feedback whose comment gave the rule.
 */
export function proposeInstructions(input: OptimizerInput): OptimizerAnswer {
  const lines = input.current.text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const known = new Set(lines.map((line) => line.toLowerCase()));
  const cited: string[] = [];
  const added: string[] = [];
  for (const item of input.feedback) {
    const rule = ruleFrom(item.comment ?? "");
    if (!rule) continue;
    cited.push(item.id);
    if (!known.has(rule.toLowerCase())) {
      known.add(rule.toLowerCase());
      added.push(rule);
    }
  }
  const comments = input.feedback.filter((item) => cited.includes(item.id)).map((item) => `"${item.comment}"`);
  return {
    change: added.length > 0,
    text: [...lines, ...added].join("\n"),
    reason:
      added.length > 0
        ? `The user asked for this in their feedback: ${[...new Set(comments)].join(", ")}.`
        : "The feedback asks for nothing new.",
    feedbackIds: cited,
    droppedLines: [],
  };
}

/** "too long, use bullet points" → "Keep answers short; use bullet points." */
export function ruleFrom(comment: string): string | null {
  const parts: string[] = [];
  for (const raw of comment.toLowerCase().split(/[,;.!?\n]|\band\b|\bbut\b/)) {
    const clause = raw.trim().replace(/\s+/g, " ");
    if (!clause) continue;
    const complaint = COMPLAINTS.find(([pattern]) => pattern.test(clause));
    const rule = complaint ? complaint[1] : clause.match(IMPERATIVE)?.[1];
    if (rule && !parts.includes(rule)) parts.push(rule);
  }
  if (parts.length === 0) return null;
  const joined = parts.join("; ");
  return `${joined.charAt(0).toUpperCase()}${joined.slice(1)}.`;
}
