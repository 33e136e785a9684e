import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { CONSOLIDATION_INSTRUCTIONS, parseConsolidationPrompt } from "@/lib/memory/consolidation";
import { parseExtractionPrompt } from "@/lib/memory/extraction";
import { OPTIMIZER_INSTRUCTIONS, parseOptimizerPrompt } from "@/lib/memory/optimizer";
import { SUMMARIZE_INSTRUCTIONS, TITLE_INSTRUCTIONS } from "../prompts";
import { decideTurn, lastUserText } from "./chat-turn";
import { consolidate } from "./consolidation";
import { type ExtractionInput, proposeOps } from "./extraction";
import { proposeInstructions } from "./instructions";
import { followPreferences, preferencesIn } from "./preferences";
import { summarizeTranscript, titleFor } from "./tasks";

let callCounter = 0;

/**
 * A deterministic, rule-based language model that needs no key or network. It implements the provider spec for real
 * (tool calls, multi-step, streaming), so everything built on it runs the same code paths as a hosted model.
 */
export class OfflineLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = "v4" as const;
  readonly provider = "offline";
  readonly supportedUrls = {};

  constructor(readonly modelId = "default") {}

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const content = this.respond(options);
    return {
      content,
      finishReason: content.some((part) => part.type === "tool-call")
        ? { unified: "tool-calls", raw: "tool_calls" }
        : { unified: "stop", raw: "stop" },
      usage: estimateUsage(options, content),
      response: { id: `offline-${++callCounter}`, modelId: this.modelId, timestamp: new Date() },
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV4CallOptions) {
    const result = await this.doGenerate(options);
    const parts: LanguageModelV4StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "response-metadata", ...result.response },
    ];
    for (const [index, part] of result.content.entries()) {
      if (part.type === "text") {
        const id = `text-${index}`;
        parts.push({ type: "text-start", id });
        for (const delta of part.text.match(/\S+\s*|\s+/g) ?? []) parts.push({ type: "text-delta", id, delta });
        parts.push({ type: "text-end", id });
      } else if (part.type === "tool-call") {
        parts.push({ type: "tool-input-start", id: part.toolCallId, toolName: part.toolName });
        parts.push({ type: "tool-input-delta", id: part.toolCallId, delta: part.input });
        parts.push({ type: "tool-input-end", id: part.toolCallId });
        parts.push(part);
      }
    }
    parts.push({ type: "finish", finishReason: result.finishReason, usage: result.usage });
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    };
  }

  private respond(options: LanguageModelV4CallOptions): LanguageModelV4Content[] {
    // Like a hosted model, it follows the task the instructions set: the app's summaries and titles, or a chat turn.
    const system = options.prompt.find((message) => message.role === "system")?.content ?? "";
    if (system.startsWith(SUMMARIZE_INSTRUCTIONS)) {
      return [{ type: "text", text: summarizeTranscript(lastUserText(options.prompt)) }];
    }
    if (system.startsWith(TITLE_INSTRUCTIONS)) return [{ type: "text", text: titleFor(lastUserText(options.prompt)) }];
    if (system.startsWith(OPTIMIZER_INSTRUCTIONS)) {
      const input = parseOptimizerPrompt(lastUserText(options.prompt));
      return [{ type: "text", text: JSON.stringify(input ? proposeInstructions(input) : {}) }];
    }
    if (system.startsWith(CONSOLIDATION_INSTRUCTIONS)) {
      const input = parseConsolidationPrompt(lastUserText(options.prompt));
      return [{ type: "text", text: JSON.stringify(input ? consolidate(input) : { ops: [] }) }];
    }
    if (options.responseFormat?.type === "json") {
      const input = parseExtractionPrompt(lastUserText(options.prompt)) as ExtractionInput | null;
      return [{ type: "text", text: JSON.stringify(input ? proposeOps(input) : {}) }];
    }
    const offered =
      options.toolChoice?.type === "none"
        ? new Set<string>()
        : new Set((options.tools ?? []).flatMap((tool) => (tool.type === "function" ? [tool.name] : [])));
    const action = decideTurn(options.prompt, offered);
    if (action.type === "text") {
      return [{ type: "text", text: followPreferences(action.text, preferencesIn(system)) }];
    }
    return action.calls.map((call) => ({
      type: "tool-call" as const,
      toolCallId: `call-${++callCounter}`,
      toolName: call.toolName,
      input: JSON.stringify(call.input),
    }));
  }
}

/** Roughly four characters a token, the usual rule of thumb, so usage figures are plausible rather than zero. */
function estimateUsage(options: LanguageModelV4CallOptions, content: LanguageModelV4Content[]): LanguageModelV4Usage {
  const input = Math.ceil(JSON.stringify(options.prompt).length / 4);
  const output = Math.ceil(JSON.stringify(content).length / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}
