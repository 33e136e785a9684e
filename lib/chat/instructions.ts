import { CHAT_INSTRUCTIONS, MEMORY_DATA_PREAMBLE, SUMMARY_PREAMBLE } from "@/lib/ai/prompts";
import type { RecalledMemory } from "./types";

/**
 * The system instructions for one turn. Recalled memories and the running summary are appended as clearly delimited
 * data: each memory is one JSON line, so nothing inside its text can close the block or pass for an instruction.
 */
export function buildInstructions(options: { recalled: readonly RecalledMemory[]; summary?: string | null }): string {
  const sections = [CHAT_INSTRUCTIONS];
  if (options.recalled.length > 0) {
    const lines = options.recalled.map((memory) =>
      JSON.stringify({ id: memory.id, kind: memory.kind, text: memory.text }),
    );
    sections.push(`${MEMORY_DATA_PREAMBLE}\n<memories>\n${lines.join("\n")}\n</memories>`);
  }
  if (options.summary) {
    sections.push(`${SUMMARY_PREAMBLE}\n<summary>\n${JSON.stringify(options.summary)}\n</summary>`);
  }
  return sections.join("\n\n");
}
