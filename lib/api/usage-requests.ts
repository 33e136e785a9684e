import { z } from "zod";
import { ValidationError } from "@/lib/errors";

/** A range covers at most this many UTC days; without `from`, the 30 days ending with `to`. */
export const MAX_USAGE_DAYS = 366;
const DEFAULT_USAGE_DAYS = 30;
const DAY_MS = 86_400_000;

const day = z.iso.date({ error: "must be a date as YYYY-MM-DD" });

/** Query of GET /api/v1/usage. */
export const usageQuery = z.strictObject({
  from: day.optional().describe("First UTC day, YYYY-MM-DD (default: 29 days before `to`)."),
  to: day.optional().describe("Last UTC day, YYYY-MM-DD, included (default: today)."),
});

const dateOf = (at: Date) => at.toISOString().slice(0, 10);
const shift = (date: string, days: number) => dateOf(new Date(Date.parse(`${date}T00:00:00.000Z`) + days * DAY_MS));

/** The range the query names, defaults filled in from `now`; a reversed or too long range is a 422. */
export function usageRange(query: z.output<typeof usageQuery>, now: Date): { from: string; to: string } {
  const to = query.to ?? dateOf(now);
  const from = query.from ?? shift(to, -(DEFAULT_USAGE_DAYS - 1));
  if (from > to) {
    throw new ValidationError("Invalid input: from: must not be after to.", [
      { path: ["from"], message: "must not be after to" },
    ]);
  }
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days > MAX_USAGE_DAYS) {
    throw new ValidationError(`Invalid input: from: the range may cover at most ${MAX_USAGE_DAYS} days.`, [
      { path: ["from"], message: `the range may cover at most ${MAX_USAGE_DAYS} days` },
    ]);
  }
  return { from, to };
}
