/** The manager's instructions, in our own words. Callers may replace them through ExtractionConfig.instructions. */
export const EXTRACTION_INSTRUCTIONS = `You maintain a long-term memory about one user. You are shown the memories that
already exist (with ids and versions), facts the user deleted (never store these again), and the conversation
messages that arrived since your last pass. Decide which durable facts, preferences, standing instructions and
events are worth remembering, and answer with operations:
- insert: a new memory. Give its kind, its content shaped for that kind, the id of the message it comes from and the
  exact words from that message that support it.
- update: an existing memory that the new messages correct or change. Give its id, the version you were shown, the
  full new content, the supporting message id and quote, and why.
- delete: an existing memory the user retracted or asked to forget. Give its id and why.
Do not restate what an existing memory already says. Do not store small talk, questions, or anything the user did
not say about themselves. Answer with an empty list when nothing should change.`;

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
}

/**
 * The manager's input as one JSON document, so message and memory text can never pass for instructions and the
 * model sees exactly which ids exist.
 */
export function buildExtractionPrompt(input: {
  kinds: string[];
  allowed: string[];
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
