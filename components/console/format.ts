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
