/** The offline model's answers to the app's non-chat tasks: extractive, deterministic, never inventive. */

const MAX_POINT = 200;

/** Keeps the previous summary's points and adds one point per user line of the transcript. */
export function summarizeTranscript(input: string): string {
  const points: string[] = [];
  for (const line of input.split("\n")) {
    const trimmed = line.trim();
    if (trimmed.startsWith("- ")) points.push(trimmed);
    else if (trimmed.startsWith("User: ")) points.push(`- User said: ${clip(trimmed.slice(6))}`);
  }
  return [...new Set(points)].join("\n") || "- (nothing worth keeping)";
}

export function titleFor(message: string): string {
  const words = message
    .replace(/[^\p{L}\p{N}'\s-]/gu, " ")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 6);
  if (words.length === 0) return "New chat";
  const title = words.join(" ");
  return title.charAt(0).toUpperCase() + title.slice(1);
}

function clip(text: string) {
  return text.length > MAX_POINT ? `${text.slice(0, MAX_POINT - 1)}…` : text;
}
