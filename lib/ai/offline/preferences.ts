import { sentences } from "./intent";

/** The user's standing preferences in a chat system prompt: the JSON lines of its <preferences> block. */
export function preferencesIn(system: string): string[] {
  const start = system.indexOf("<preferences>\n");
  const end = system.indexOf("\n</preferences>", start);
  if (start < 0 || end < 0) return [];
  return system
    .slice(start + "<preferences>\n".length, end)
    .split("\n")
    .flatMap((line) => {
      try {
        const value = JSON.parse(line) as { preference?: unknown };
        return typeof value.preference === "string" ? [value.preference] : [];
      } catch {
        return [];
      }
    });
}

/**
 * The offline model follows the two kinds of preference it can recognise: short answers (the first two sentences)
 * and bullet points (one sentence a line). Anything else it cannot follow, so it answers as it would have.
 */
export function followPreferences(text: string, preferences: readonly string[]): string {
  const wanted = preferences.join(" ").toLowerCase();
  const short = /\b(short|brief|concise)\b/.test(wanted);
  const bullets = /\bbullet/.test(wanted);
  if (!short && !bullets) return text;
  let parts = sentences(text);
  if (parts.length === 0) return text;
  if (short) parts = parts.slice(0, 2);
  return bullets ? parts.map((part) => `- ${part}`).join("\n") : parts.join(" ");
}
