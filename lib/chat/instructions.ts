import {
  CHAT_INSTRUCTIONS,
  MEMORY_DATA_PREAMBLE,
  PREFERENCES_PREAMBLE,
  RULES_PREAMBLE,
  SUMMARY_PREAMBLE,
} from "@/lib/ai/prompts";
import type { RecalledMemory } from "./types";

/**
 * The system instructions for one turn. Recalled memories and the running summary are appended as clearly delimited
 * data: each memory is one JSON line, so nothing inside its text can end the line, and no text can close the block.
 */
export function buildInstructions(options: {
  recalled: readonly RecalledMemory[];
  summary?: string | null;
  rules?: ReadonlyArray<{ text: string; terms: readonly string[] }>;
  /**
   * The user's standing instructions (docs/memory-model.md): how they want answers, one JSON line per line they wrote.
   */
  preferences?: string | null;
}): string {
  const sections = [CHAT_INSTRUCTIONS];
  const preferences = (options.preferences ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  if (preferences.length > 0) {
    const lines = preferences.map((line) => dataLine({ preference: line }));
    sections.push(`${PREFERENCES_PREAMBLE}\n<preferences>\n${lines.join("\n")}\n</preferences>`);
  }
  if (options.rules && options.rules.length > 0) {
    const lines = options.rules.map((rule) => dataLine({ rule: rule.text, terms: rule.terms }));
    sections.push(`${RULES_PREAMBLE}\n<rules>\n${lines.join("\n")}\n</rules>`);
  }
  if (options.recalled.length > 0) {
    // Each memory in the shape the tools answer with (lib/memory/contract/vocabulary.ts); the score is for the disclosure.
    const lines = options.recalled.map(({ score: _score, ...memory }) => dataLine(memory));
    sections.push(`${MEMORY_DATA_PREAMBLE}\n<memories>\n${lines.join("\n")}\n</memories>`);
  }
  if (options.summary) {
    sections.push(`${SUMMARY_PREAMBLE}\n<summary>\n${dataLine(options.summary)}\n</summary>`);
  }
  return sections.join("\n\n");
}

const ESCAPES: Record<string, string> = { "<": "\\u003c", ">": "\\u003e", "\u2028": "\\u2028", "\u2029": "\\u2029" };

/**
 * JSON with angle brackets and Unicode line separators escaped: the value parses back unchanged, but text such as
 * "</memories>" never appears literally (so it cannot pass for the end of the data block) and the line never breaks.
 */
export function dataLine(value: unknown): string {
  return JSON.stringify(value).replace(/[<>\u2028\u2029]/g, (character) => ESCAPES[character] ?? character);
}
