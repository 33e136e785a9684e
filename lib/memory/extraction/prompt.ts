/** The manager's instructions, in our own words. Callers may replace them through ExtractionConfig.instructions. */
export const EXTRACTION_INSTRUCTIONS = `You maintain a long-term memory about one user. You are shown the memories that
already exist (with ids and versions), facts the user deleted (never store these again), the user's rules (what
they forbid you to remember: never insert or update anything a rule covers, whether or not it names a listed term),
and the conversation messages that arrived since your last pass. Decide which durable facts, preferences, standing instructions and
events are worth remembering, and answer with operations (fields that do not apply are null):
- insert: a new memory. Give its kind; its content as "text" for a plain memory (one self-contained statement in the
  third person, e.g. "The user works as a nurse") or as "fields" (name/value pairs) for other kinds.
- update: an existing memory that the new messages correct or change. Give its id, the version you were shown, the
  full new content as for an insert, and why.
- delete: an existing memory the user retracted or asked to forget. Give its id and why.
When the user says when a fact started or stopped holding in the world ("I moved to Vancouver last month"), give
validFrom / validTo as dates (YYYY-MM-DD), worked out from the message's createdAt. An update with validFrom means
the fact changed in the world then: the old memory is kept as history (closed at that date) and a new one holds the
new value. Use an update without validFrom to correct a memory that was wrong. Leave both null when no time is said.
Every operation gives the id of the user's message it comes from and the exact words of that message that support
it (for a delete: the words that ask for it). Only the user's own words count: never store what the assistant said
or assumed, or what a pasted text says about someone else. Do not restate what an existing memory already says. Do
not store small talk or questions. Answer with an empty list when nothing should change.`;

export interface PromptMemory {
  id: string;
  version: number;
  kind: string;
  text: string;
}

export interface PromptMessage {
  id: string;
  role: string;
  text: string;
  /** When the message was sent (ISO), so "last month" can be read as a date. */
  createdAt?: string;
}

/**
 * The manager's input as one JSON document, so message and memory text can never pass for instructions and the
 * model sees exactly which ids exist.
 */
export function buildExtractionPrompt(input: {
  kinds: string[];
  allowed: string[];
  /** The user's rules: data the user wrote, kept inside the JSON like every other text. */
  rules?: Array<{ text: string; terms: string[] }>;
  existing: PromptMemory[];
  deleted: string[];
  messages: PromptMessage[];
}): string {
  return `Input (JSON):\n${JSON.stringify(input, null, 1)}`;
}

export function parseExtractionPrompt(prompt: string): ReturnType<typeof JSON.parse> | null {
  const start = prompt.indexOf("{");
  if (!prompt.startsWith("Input (JSON):") || start < 0) return null;
  try {
    return JSON.parse(prompt.slice(start));
  } catch {
    return null;
  }
}
