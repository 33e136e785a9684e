const dateTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** Server-rendered times are shown in UTC (labelled) so server and client render the same text. */
export function formatDateTime(value: Date | string): string {
  return `${dateTime.format(new Date(value))} UTC`;
}

/** `ownerLabel` names the namespace's owner: "You" on your own pages, something else when an admin is looking. */
export function formatActor(actor: { type: string; id: string }, ownerId: string, ownerLabel: string): string {
  if (actor.type === "user") return actor.id === ownerId ? ownerLabel : `User ${actor.id.slice(0, 8)}`;
  if (actor.type === "agent") return `Assistant (${actor.id})`;
  if (actor.type === "extractor") return "Background extraction";
  if (actor.type === "api") return `API key ${actor.id.slice(0, 8)}`;
  return `Admin ${actor.id.slice(0, 8)}`;
}

/** US dollars: cents for everyday amounts, more digits for the fractions of a cent single calls cost. */
export function formatUsd(value: number): string {
  if (value === 0) return "$0.00";
  if (Math.abs(value) >= 0.01) return `$${value.toFixed(2)}`;
  return `$${value.toPrecision(2)}`;
}

const integer = new Intl.NumberFormat("en");

export function formatCount(value: number): string {
  return integer.format(value);
}

const day = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });

/** When a fact held in the world, e.g. "since Nov 1, 2026" or "Mar 2, 2025 – Nov 1, 2026"; null when unknown. */
export function formatValidity(validFrom: string | null, validTo: string | null): string | null {
  const from = validFrom ? day.format(new Date(validFrom)) : null;
  const to = validTo ? day.format(new Date(validTo)) : null;
  if (from && to) return `${from} – ${to}`;
  if (from) return `since ${from}`;
  if (to) return `until ${to}`;
  return null;
}
