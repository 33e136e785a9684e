import type { LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from "@ai-sdk/provider";
import { sameSlot } from "@/lib/text/slots";
import { type Fact, readMessage } from "./intent";
import { changeStartedOn } from "./when";

export interface ToolCall {
  toolName: string;
  input: Record<string, unknown>;
}

/** The model's next step: tool calls (several run in one step, like a hosted model's parallel calls), or the answer. */
export type TurnAction = { type: "tools"; calls: ToolCall[] } | { type: "text"; text: string };

/** A tool call the model made after the latest user message, with its result. */
interface ToolStep {
  toolName: string;
  input: Record<string, unknown>;
  output: LanguageModelV4ToolResultOutput;
}

const OFFLINE_GREETING =
  'I\'m the offline model, so I follow simple rules: tell me things to remember ("My name is…", "I live in…", ' +
  '"I work as…", "I prefer…", "From now on…"), ask me questions about them, or say "Forget…". Configure a real ' +
  "model for open conversation.";

/**
 * Decides the next step of a chat turn from the prompt alone, so the model stays stateless like a real provider. The
 * latest user message is read once (see readMessage) into up to three parts done in order: forgetting, saving each
 * fact it states, and answering its question. The tool calls that follow the message in the prompt, with their
 * results, say how far the turn got; when every part is done the answer reports on all of them.
 */
export function decideTurn(prompt: LanguageModelV4Prompt, availableTools: ReadonlySet<string>): TurnAction {
  const lastUser = prompt.findLastIndex((message) => message.role === "user");
  const reading = readMessage(lastUser >= 0 ? textOf(prompt[lastUser]!) : "");
  const steps = toolStepsAfter(prompt, lastUser);
  const tools = { search: availableTools.has("search_memory"), manage: availableTools.has("manage_memory") };
  const replies: string[] = [];
  let forgotten: string | undefined;
  let cursor = 0;
  /** The next `count` steps, or undefined when the turn has not made them yet. */
  const take = (count: number) => {
    if (cursor + count > steps.length) return undefined;
    cursor += count;
    return steps.slice(cursor - count, cursor);
  };

  if (reading.forget) {
    const { query } = reading.forget;
    if (!tools.search || !tools.manage) replies.push("I can't change memories in this conversation.");
    else {
      const [search] = take(1) ?? [];
      if (!search) return call("search_memory", { query, limit: 1 });
      const [match] = resultsOf(search.output);
      if (!match) replies.push(`I don't have anything saved about "${query}", so there is nothing to forget.`);
      else {
        const [removal] = take(1) ?? [];
        if (!removal) return call("manage_memory", { action: "delete", id: match.id });
        forgotten = match.id;
        replies.push(
          isError(removal.output)
            ? `I couldn't forget that: ${errorText(removal.output)}`
            : proposalOf(removal.output)
              ? `I'll forget it once you approve (under this answer, or on the Review page): ${match.text}.`
              : `Done. I've forgotten: ${match.text}.`,
        );
      }
    }
  }

  if (reading.facts.length > 0) {
    if (!tools.manage) replies.push("I can't save memories in this conversation.");
    else {
      const recalled = recalledMemories(prompt).filter((memory) => memory.id !== forgotten);
      // The message being answered is said now: "last month" is read from today.
      const plan = planSaves(reading.facts, recalled, new Date());
      const done = plan.calls.length > 0 ? take(plan.calls.length) : [];
      if (!done) return { type: "tools", calls: plan.calls };
      replies.push(...saveReplies(plan, done, reading.facts.length));
    }
  }

  if (reading.question) {
    if (!tools.search) replies.push("I can't look up memories in this conversation.");
    else {
      const [search] = take(1) ?? [];
      if (!search) return call("search_memory", { query: reading.question.query, limit: 5 });
      const results = resultsOf(search.output);
      replies.push(
        results.length === 0
          ? "I don't have anything saved about that yet."
          : `Here is what I remember:\n${results.map((r) => `- ${r.text}`).join("\n")}`,
      );
    }
  }

  return { type: "text", text: replies.length > 0 ? replies.join("\n\n") : OFFLINE_GREETING };
}

interface SavePlan {
  calls: ToolCall[];
  /** Facts a recalled memory already states word for word. */
  known: string[];
}

/** Facts saved in one turn at most; the background manager reads the rest of a long message. */
const MAX_SAVES = 10;

/**
 * One manage_memory call per new fact (up to MAX_SAVES): an update of the recalled memory that holds the same slot ("prefers dark
 * mode" when the user now prefers light mode), otherwise a create.
 */
function planSaves(facts: Fact[], recalled: Array<{ id: string; text: string }>, said: Date): SavePlan {
  const calls: ToolCall[] = [];
  const known: string[] = [];
  const updating = new Map<string, ToolCall>();
  for (const { content, quote } of facts) {
    // A dated change ("I moved … last month") supersedes: the old value stays as history, closed at that date.
    const validFrom = changeStartedOn(quote, said);
    const since = validFrom ? { validFrom } : {};
    const same = recalled.find((memory) => normalize(memory.text) === normalize(content));
    if (same) {
      known.push(same.text);
      continue;
    }
    if (calls.length >= MAX_SAVES || calls.some((planned) => planned.input.content === content)) continue;
    const slot = recalled.find((memory) => sameSlot(memory.text, content));
    const earlier = slot && updating.get(slot.id);
    if (earlier) earlier.input.content = content;
    else if (slot) {
      const update = { toolName: "manage_memory", input: { action: "update", id: slot.id, content, ...since } };
      updating.set(slot.id, update);
      calls.push(update);
    } else calls.push({ toolName: "manage_memory", input: { action: "create", content, ...since } });
  }
  return { calls, known };
}

function saveReplies(plan: SavePlan, steps: ToolStep[], factCount: number): string[] {
  const created: string[] = [];
  const updated: string[] = [];
  const failed: Array<{ content: string; error: string }> = [];
  const held: string[] = [];
  const restated: string[] = [];
  for (const step of steps) {
    const content = String(step.input.content ?? "");
    const proposal = proposalOf(step.output);
    if (isError(step.output)) failed.push({ content, error: errorText(step.output) });
    else if (proposal?.cause === "restated") restated.push(`Not saved: ${proposal.text}. ${proposal.reason}`);
    else if (proposal) held.push(proposal.text);
    else (isUpdate(step.output) ? updated : created).push(savedText(step.output) ?? content);
  }
  const replies: string[] = [];
  if (created.length > 0) replies.push(listed("Got it. I'll remember", created));
  if (updated.length > 0) replies.push(listed("Updated", updated));
  if (held.length > 0) replies.push(listed("Saved for your review (approve it under this answer)", held));
  if (restated.length > 0) replies.push(`${restated.join("\n")}\nApprove it under this answer to remember it again.`);
  if (plan.known.length > 0) replies.push(listed("I already know that", plan.known));
  for (const { content, error } of failed) {
    replies.push(factCount === 1 ? `I couldn't save that: ${error}` : `I couldn't save "${content}": ${error}`);
  }
  return replies;
}

function listed(label: string, items: string[]) {
  return items.length === 1 ? `${label}: ${items[0]}.` : `${label}:\n${items.map((item) => `- ${item}`).join("\n")}`;
}

function call(toolName: string, input: Record<string, unknown>): TurnAction {
  return { type: "tools", calls: [{ toolName, input }] };
}

function normalize(text: string) {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export function lastUserText(prompt: LanguageModelV4Prompt): string {
  const message = prompt.findLast((entry) => entry.role === "user");
  return message ? textOf(message) : "";
}

/** The memories the app recalled into the instructions: one JSON object per line inside <memories>. */
function recalledMemories(prompt: LanguageModelV4Prompt): Array<{ id: string; text: string }> {
  const system = prompt.find((message) => message.role === "system")?.content ?? "";
  // Found with indexOf: a lazy /<memories>\n([\s\S]*?)\n<\/memories>/ rescans the rest from every opening tag.
  const start = system.indexOf("<memories>\n");
  const end = system.indexOf("\n</memories>", start);
  if (start < 0 || end < 0) return [];
  const block = system.slice(start + "<memories>\n".length, end);
  return block.split("\n").flatMap((line) => {
    try {
      const { id, text } = JSON.parse(line) as { id?: unknown; text?: unknown };
      return typeof id === "string" && typeof text === "string" ? [{ id, text }] : [];
    } catch {
      return [];
    }
  });
}

/** A manage_memory result that waits for the user's approval, with why (the tool's `proposed` answer). */
function proposalOf(output: LanguageModelV4ToolResultOutput): { text: string; cause: string; reason: string } | null {
  if (output.type !== "json") return null;
  const value = output.value as { action?: unknown; text?: unknown; cause?: unknown; reason?: unknown } | null;
  if (value?.action !== "proposed") return null;
  return { text: String(value.text ?? ""), cause: String(value.cause ?? ""), reason: String(value.reason ?? "") };
}

function isUpdate(output: LanguageModelV4ToolResultOutput) {
  const action = output.type === "json" ? (output.value as { action?: unknown } | null)?.action : undefined;
  return action === "updated" || action === "superseded";
}

function textOf(message: LanguageModelV4Prompt[number]): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
}

/** The tool calls after the latest user message, in the order they were made, each with its result. */
function toolStepsAfter(prompt: LanguageModelV4Prompt, index: number): ToolStep[] {
  const calls: Array<{ id: string; toolName: string; input: Record<string, unknown> }> = [];
  const outputs = new Map<string, LanguageModelV4ToolResultOutput>();
  for (const message of prompt.slice(index + 1)) {
    if (message.role === "assistant") {
      for (const part of message.content) {
        if (part.type !== "tool-call") continue;
        const input = typeof part.input === "string" ? parseJson(part.input) : part.input;
        calls.push({ id: part.toolCallId, toolName: part.toolName, input: (input ?? {}) as Record<string, unknown> });
      }
    } else if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type === "tool-result") outputs.set(part.toolCallId, part.output);
      }
    }
  }
  return calls.flatMap(({ id, toolName, input }) => {
    const output = outputs.get(id);
    return output ? [{ toolName, input, output }] : [];
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The memory text a manage_memory result reports. */
function savedText(output: LanguageModelV4ToolResultOutput): string | undefined {
  if (output.type !== "json") return undefined;
  const text = (output.value as { text?: unknown } | null)?.text;
  return typeof text === "string" ? text : undefined;
}

function isError(output: LanguageModelV4ToolResultOutput) {
  return output.type === "error-text" || output.type === "error-json";
}

function errorText(output: LanguageModelV4ToolResultOutput): string {
  if (output.type === "error-text") return output.value.replace(/^Error:\s*/, "");
  return output.type === "error-json" ? JSON.stringify(output.value) : "";
}

/** Reads search_memory's output: an array of hits with `id` and `text`. */
function resultsOf(output: LanguageModelV4ToolResultOutput): Array<{ id: string; text: string }> {
  if (output.type !== "json" || !Array.isArray(output.value)) return [];
  return output.value.flatMap((hit) => {
    const { id, text } = (hit ?? {}) as { id?: unknown; text?: unknown };
    return typeof id === "string" && typeof text === "string" ? [{ id, text }] : [];
  });
}
