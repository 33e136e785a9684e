/** What a user message asks of the memory, as the offline model understands it. */
export type Intent =
  | { type: "save"; content: string }
  | { type: "forget"; query: string }
  | { type: "ask"; query: string }
  | { type: "chat" };

const QUESTION_START =
  /^(what|what's|whats|who|whom|whose|when|where|which|why|how|do|does|did|is|are|am|was|were|can|could|should|would|will|have|has|tell me)\b/i;

/** Rules in the order they are tried; the first that matches decides. */
const SAVE_RULES: Array<[RegExp, (match: RegExpMatchArray) => string]> = [
  [/^(?:please\s+)?(?:remember|note|keep in mind)(?:\s+that)?[,:]?\s+(.+)$/i, (m) => thirdPerson(m[1]!)],
  [/^from now on[,:]?\s+(.+)$/i, (m) => `From now on, ${stripTrailing(m[1]!)}`],
  [/^(?:my name is|call me)\s+(.+)$/i, (m) => `User's name is ${stripTrailing(m[1]!)}`],
  [/^(i (?:prefer|like|love|hate|dislike|use|work|live|am|don't like|do not like)\b.+)$/i, (m) => thirdPerson(m[1]!)],
  [/^(i'm\s+.+)$/i, (m) => thirdPerson(m[1]!)],
  [/^(my\s+\S+(?:\s+\S+)?\s+(?:is|are)\s+.+)$/i, (m) => thirdPerson(m[1]!)],
];

export function readIntent(message: string): Intent {
  const text = message
    .trim()
    .replace(/\s+/g, " ")
    .replace(/^(?:(?:actually|well|ok|okay|so|also|oh|and|but|hey)\b[,!]?\s+)+/i, "");
  if (!text) return { type: "chat" };
  const forget = text.match(/^(?:please\s+)?forget(?:\s+(?:that|about|what i said about))?\s+(.+)$/i);
  if (forget) return { type: "forget", query: stripTrailing(forget[1]!) };
  // A statement is read from the first sentence only; the background manager reads every sentence.
  const [first = text] = sentences(text);
  for (const [pattern, render] of SAVE_RULES) {
    const match = first.match(pattern);
    if (match) return { type: "save", content: capitalize(render(match)) };
  }
  if (text.endsWith("?") || QUESTION_START.test(text)) return { type: "ask", query: stripTrailing(text) };
  return { type: "chat" };
}

/** Splits text into sentences, each an exact substring of the input. */
export function sentences(text: string): string[] {
  return (
    text
      .match(/[^.!?]+(?:[.!?]+|$)/g)
      ?.map((sentence) => sentence.trim())
      .filter(Boolean) ?? []
  );
}

const LEADING: Array<[RegExp, string]> = [
  [/^i'm\b/i, "User is"],
  [/^i am\b/i, "User is"],
  [/^i don't\b/i, "User doesn't"],
  [/^i do not\b/i, "User does not"],
  [/^my\b/i, "User's"],
];
const INNER: Array<[RegExp, string]> = [
  [/\bmy\b/gi, "their"],
  [/\bme\b/gi, "them"],
  [/\bi'm\b/gi, "they are"],
  [/\bi\b/gi, "they"],
];

/** Rewrites a first-person statement so the memory reads correctly out of context ("I prefer" → "User prefers"). */
export function thirdPerson(statement: string): string {
  let text = stripTrailing(statement);
  for (const [pattern, replacement] of LEADING) text = text.replace(pattern, replacement);
  text = text.replace(/^i (\w+)/i, (_, verb: string) => `User ${conjugate(verb)}`);
  for (const [pattern, replacement] of INNER) text = text.replace(pattern, replacement);
  return text;
}

/** Third-person singular of an English verb, good enough for the verbs people state facts with. */
function conjugate(verb: string) {
  const lower = verb.toLowerCase();
  if (lower === "have") return "has";
  if (/(s|sh|ch|x|z|o)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

function stripTrailing(text: string) {
  return text.trim().replace(/[.!?\s]+$/, "");
}

function capitalize(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
