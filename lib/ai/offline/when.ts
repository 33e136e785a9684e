/**
 * When a change the user reports took effect, read from a time phrase relative to when they said it: "I moved to
 * Vancouver last month" said on 2026-12-01 → 2026-11-01. Only statements of a change (moving, starting, joining…)
 * carry such a start: "I read a lot last year" is no fact that began then.
 */
const CHANGE = /\b(?:moved|relocated|started|joined|switched|became|retired)\b/i;
const NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
const AGO = /\b(\d{1,2}|an?|one|two|three|four|five|six)\s+(day|week|month|year)s?\s+ago\b/i;
const YEAR = /\b(?:in|since)\s+((?:19|20)\d{2})\b/i;

export function changeStartedOn(quote: string, said: Date | undefined): string | null {
  if (!said || Number.isNaN(said.getTime()) || !CHANGE.test(quote)) return null;
  const text = quote.toLowerCase();
  const year = said.getUTCFullYear();
  const month = said.getUTCMonth();
  let start: Date | null = null;
  if (/\byesterday\b/.test(text)) start = addDays(said, -1);
  else if (/\blast\s+week\b/.test(text)) start = addDays(said, -7);
  else if (/\blast\s+month\b/.test(text)) start = new Date(Date.UTC(year, month - 1, 1));
  else if (/\blast\s+year\b/.test(text)) start = new Date(Date.UTC(year - 1, 0, 1));
  else {
    const ago = AGO.exec(text);
    const inYear = YEAR.exec(text);
    if (ago) {
      const count = NUMBERS[ago[1]!] ?? Number(ago[1]);
      const unit = ago[2]!;
      if (unit === "day") start = addDays(said, -count);
      else if (unit === "week") start = addDays(said, -7 * count);
      else if (unit === "month") start = new Date(Date.UTC(year, month - count, 1));
      else start = new Date(Date.UTC(year - count, 0, 1));
    } else if (inYear) start = new Date(Date.UTC(Number(inYear[1]), 0, 1));
  }
  if (!start || start.getTime() > said.getTime()) return null;
  return start.toISOString().slice(0, 10);
}

const addDays = (date: Date, days: number) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days));
