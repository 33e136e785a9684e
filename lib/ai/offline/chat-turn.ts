import type { LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from "@ai-sdk/provider";
import { sameSlot } from "./extraction";
import { readIntent } from "./intent";

export type TurnAction =
  | { type: "tool"; toolName: string; input: Record<string, unknown> }
  | { type: "text"; text: string };

interface ToolStep {
  toolName: string;
  output: LanguageModelV4ToolResultOutput;
}

const OFFLINE_GREETING =
  'I\'m the offline model, so I follow simple rules: tell me things to remember ("Remember that…", "I prefer…", ' +
  '"My name is…", "From now on…"), ask me questions about them, or say "Forget…". Configure a real model for open conversation.';

/**
 * Decides the next step of a chat turn from the prompt alone, so the model stays stateless like a real provider: the
 * latest user message sets the intent, and the tool results that follow it in the prompt say how far the turn got.
 */
export function decideTurn(prompt: LanguageModelV4Prompt, availableTools: ReadonlySet<string>): TurnAction {
  const lastUser = prompt.findLastIndex((message) => message.role === "user");
  const userText = lastUser >= 0 ? textOf(prompt[lastUser]!) : "";
  const steps = toolStepsAfter(prompt, lastUser);
  const intent = readIntent(userText);
  const canSearch = availableTools.has("search_memory");
  const canManage = availableTools.has("manage_memory");
  const last = steps.at(-1);

  switch (intent.type) {
    case "save":
      if (!canManage) return { type: "text", text: "I can't save memories in this conversation." };
      if (!last) {
        // A recalled memory holding the same slot ("prefers dark mode") is updated rather than contradicted.
        const same = recalledMemories(prompt).find(
          (memory) => memory.text === intent.content || sameSlot(memory.text, intent.content),
        );
        if (same?.text === intent.content) return { type: "text", text: `I already know that: ${same.text}.` };
        return same
          ? {
              type: "tool",
              toolName: "manage_memory",
              input: { action: "update", id: same.id, content: intent.content },
            }
          : { type: "tool", toolName: "manage_memory", input: { action: "create", content: intent.content } };
      }
      if (isError(last.output)) return { type: "text", text: `I couldn't save that: ${errorText(last.output)}` };
      return {
        type: "text",
        text: isUpdate(last.output) ? `Updated: ${intent.content}.` : `Got it. I'll remember: ${intent.content}.`,
      };
    case "forget": {
      if (!canSearch || !canManage) return { type: "text", text: "I can't change memories in this conversation." };
      if (!last) return { type: "tool", toolName: "search_memory", input: { query: intent.query, limit: 1 } };
      if (last.toolName === "search_memory") {
        const [match] = resultsOf(last.output);
        if (!match)
          return {
            type: "text",
            text: `I don't have anything saved about "${intent.query}", so there is nothing to forget.`,
          };
        return { type: "tool", toolName: "manage_memory", input: { action: "delete", id: match.id } };
      }
      const found = steps.find((step) => step.toolName === "search_memory");
      const forgotten = found ? resultsOf(found.output)[0]?.text : undefined;
      return {
        type: "text",
        text: isError(last.output)
          ? `I couldn't forget that: ${errorText(last.output)}`
          : `Done. I've forgotten: ${forgotten ?? intent.query}.`,
      };
    }
    case "ask": {
      if (!canSearch) return { type: "text", text: "I can't look up memories in this conversation." };
      if (!last) return { type: "tool", toolName: "search_memory", input: { query: intent.query, limit: 5 } };
      const results = resultsOf(last.output);
      if (results.length === 0) return { type: "text", text: "I don't have anything saved about that yet." };
      return { type: "text", text: `Here is what I remember:\n${results.map((r) => `- ${r.text}`).join("\n")}` };
    }
    case "chat":
      return { type: "text", text: OFFLINE_GREETING };
  }
}

export function lastUserText(prompt: LanguageModelV4Prompt): string {
  const message = prompt.findLast((entry) => entry.role === "user");
  return message ? textOf(message) : "";
}

/** The memories the app recalled into the instructions: one JSON object per line inside <memories>. */
function recalledMemories(prompt: LanguageModelV4Prompt): Array<{ id: string; text: string }> {
  const system = prompt.find((message) => message.role === "system")?.content ?? "";
  const block = system.match(/<memories>\n([\s\S]*?)\n<\/memories>/)?.[1] ?? "";
  return block.split("\n").flatMap((line) => {
    try {
      const { id, text } = JSON.parse(line) as { id?: unknown; text?: unknown };
      return typeof id === "string" && typeof text === "string" ? [{ id, text }] : [];
    } catch {
      return [];
    }
  });
}

function isUpdate(output: LanguageModelV4ToolResultOutput) {
  return output.type === "json" && (output.value as { action?: unknown } | null)?.action === "updated";
}

function textOf(message: LanguageModelV4Prompt[number]): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
}

function toolStepsAfter(prompt: LanguageModelV4Prompt, index: number): ToolStep[] {
  const steps: ToolStep[] = [];
  for (const message of prompt.slice(index + 1)) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result") steps.push({ toolName: part.toolName, output: part.output });
    }
  }
  return steps;
}

function isError(output: LanguageModelV4ToolResultOutput) {
  return output.type === "error-text" || output.type === "error-json";
}

function errorText(output: LanguageModelV4ToolResultOutput): string {
  if (output.type === "error-text") return output.value.replace(/^Error:\s*/, "");
  return output.type === "error-json" ? JSON.stringify(output.value) : "";
}

/** Reads search_memory's output: an array of hits with `id` and `content`. */
function resultsOf(output: LanguageModelV4ToolResultOutput): Array<{ id: string; text: string }> {
  if (output.type !== "json" || !Array.isArray(output.value)) return [];
  return output.value.flatMap((hit) => {
    const { id, content } = (hit ?? {}) as { id?: unknown; content?: unknown };
    return typeof id === "string" && typeof content === "string" ? [{ id, text: content }] : [];
  });
}
