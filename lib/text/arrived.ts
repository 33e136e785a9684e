import { withoutManagersMarks } from "@/lib/text/user-statement";

/**
 * A change said ahead of its time, once that time has come (docs/memory-model.md, "Consolidation"): "Moving to Lyon
 * next month" said on 2026-09-07 says where the user lives from 2026-10-01 on, "User is starting as a pilot next week"
 * what they work as a week after it was said. Read only where the statement says when, counted from when it was said
 * ("next week", "next month", "in two weeks", "on 2026-10-01", "tomorrow"): "is relocating to Madrid" says no when and
 * stays ahead. Returns the statement as said once done ("User moved to Lyon, lease signed"), for the slot readers,
 * or undefined when it says no such change or its time is still ahead.
 */
export function arrivedStatement(text: string, said: Date, now: Date): string | undefined {
  const time = WHEN.exec(text);
  if (!time || Number.isNaN(said.getTime())) return undefined;
  const due = dueDate(time, said);
  if (due === undefined || due.getTime() > now.getTime()) return undefined;
  // The time and what ties it to the statement ("…, starting next month", "… from next week") go with it.
  const { kept, tied } = untied(text.slice(0, time.index));
  const rest = `${kept}${text.slice(time.index + time[0].length)}`.replace(/\s+/g, " ").trim();
  const subject = OPENS_WITH_THE_USER.exec(rest)?.[0] ?? "";
  const predicate = rest.slice(subject.length);
  const done = DONE.find(([ahead]) => ahead.test(predicate));
  if (done) return `${subject || "User "}${predicate.replace(done[0], done[1])}`;
  // Any other statement only where the time says when it starts ("has accepted a position as an architect, starting
  // next month"): "lives in Porto until next month" ends then.
  return subject && tied ? rest : undefined;
}

/**
 * A memory as the readers compare it on `now`: without a manager's marks (lib/text/user-statement.ts), and a change
 * said ahead as done once its time has come.
 */
export function statementNow(text: string, said: Date, now: Date): string {
  const plain = withoutManagersMarks(text);
  return arrivedStatement(plain, said, now) ?? plain;
}

const NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
const WHEN =
  /\b(?:next (week|month|year)|in (a|an|one|two|three|four|five|six|\d{1,2}) (day|week|month)s?|on (\d{4}-\d{2}-\d{2})|tomorrow)\b/i;
/**
 * The words before a time without what ties the time to them (", starting", " from"), and whether a word of a start
 * did. By hand: a pattern of optional blanks on both sides of an optional word rescans a run of blanks from each.
 */
function untied(before: string): { kept: string; tied: boolean } {
  let kept = before.trimEnd();
  const lower = kept.toLowerCase();
  const tie = STARTS.find((word) => lower === word || lower.endsWith(` ${word}`));
  if (tie) kept = kept.slice(0, kept.length - tie.length).trimEnd();
  if (kept.endsWith(",")) kept = kept.slice(0, -1);
  return { kept, tied: tie !== undefined };
}
const STARTS = ["starting", "from", "as of", "beginning"];
const OPENS_WITH_THE_USER = /^(?:the user|user)\s+/i;

/** The moves and starts said ahead, and the same said once done. */
const DONE: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:is |will be |'s )?(?:moving|relocating) to\b|^(?:will |is going to )?(?:move|relocate)s? to\b/i, "moved to"],
  [
    /^(?:is |will be )?starting (?:work |a new job |a new role |a new position |a job |a role |a position )?as\b|^(?:will )?starts? (?:work )?as\b/i,
    "works as",
  ],
];

/** When a time counted from `said` comes: the first day of the next month or year, or so many days on. */
function dueDate(time: RegExpExecArray, said: Date): Date | undefined {
  const [, next, count, unit, day] = time;
  const year = said.getUTCFullYear();
  const month = said.getUTCMonth();
  if (next?.toLowerCase() === "week") return addDays(said, 7);
  if (next?.toLowerCase() === "month") return new Date(Date.UTC(year, month + 1, 1));
  if (next?.toLowerCase() === "year") return new Date(Date.UTC(year + 1, 0, 1));
  if (count && unit) {
    const n = NUMBERS[count.toLowerCase()] ?? Number(count);
    const lower = unit.toLowerCase();
    return lower === "day"
      ? addDays(said, n)
      : lower === "week"
        ? addDays(said, 7 * n)
        : new Date(Date.UTC(year, month + n, said.getUTCDate()));
  }
  if (day) {
    const date = new Date(`${day}T00:00:00.000Z`);
    return Number.isNaN(date.getTime()) ? undefined : date;
  }
  return addDays(said, 1);
}

const addDays = (date: Date, days: number) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days));
