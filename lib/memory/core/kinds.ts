import { createHash } from "node:crypto";
import { z } from "zod";
import { ValidationError } from "@/lib/errors";
import {
  type EpisodeContent,
  episodeContent,
  LIMITS,
  type MemoryContent,
  memoryContent,
  type PreferenceContent,
  type ProcedureContent,
  preferenceContent,
  procedureContent,
  profileContent,
  type TripleContent,
  tripleContent,
} from "@/lib/memory/contract";
import { PayloadTooLargeError } from "./errors";

/** A kind is a named zod schema plus how its content reads as text (for search and display). */
export interface KindDefinition<T = unknown> {
  name: string;
  schema: z.ZodType<T>;
  render(content: T): string;
  /** Kinds holding one document per namespace store it under this key; creating one again updates it in place. */
  singletonKey?: string;
}

export function defineKind<T>(definition: KindDefinition<T>): KindDefinition {
  return definition as KindDefinition;
}

const KIND_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

const joinParts = (...parts: (string | false | undefined)[]) => parts.filter(Boolean).join(" ");

/** Custom kinds render as `field: value` lines over their scalar leaves. */
export function renderFields(content: unknown, prefix = ""): string {
  if (content === null || content === undefined) return "";
  if (typeof content !== "object") return prefix ? `${prefix}: ${String(content)}` : String(content);
  const entries = Array.isArray(content)
    ? content.map((value, index) => [String(index), value] as const)
    : Object.entries(content);
  return entries
    .map(([field, value]) => renderFields(value, prefix ? `${prefix} ${field}` : field))
    .filter(Boolean)
    .join("\n");
}

export const builtInKinds: KindDefinition[] = [
  defineKind<MemoryContent>({ name: "memory", schema: memoryContent, render: (c) => c.content }),
  defineKind<PreferenceContent>({
    name: "preference",
    schema: preferenceContent,
    render: (c) => joinParts(c.subject && `${c.subject}:`, c.preference, c.context && `(${c.context})`),
  }),
  defineKind<EpisodeContent>({
    name: "episode",
    schema: episodeContent,
    render: (c) =>
      [`Observation: ${c.observation}`, `Thoughts: ${c.thoughts}`, `Action: ${c.action}`, `Result: ${c.result}`].join(
        "\n",
      ),
  }),
  defineKind<ProcedureContent>({
    name: "procedure",
    schema: procedureContent,
    render: (c) => joinParts(c.rule, c.when && `(when ${c.when})`),
  }),
  defineKind<TripleContent>({
    name: "triple",
    schema: tripleContent,
    render: (c) => joinParts(c.subject, c.predicate, c.object, c.context && `(${c.context})`),
  }),
  defineKind({ name: "profile", schema: profileContent, render: renderFields, singletonKey: "profile" }),
  // Arbitrary JSON objects other apps store (e.g. LangGraph Store values), searchable by their field text.
  defineKind({ name: "document", schema: z.record(z.string().min(1).max(200), z.json()), render: renderFields }),
];

export class KindRegistry {
  readonly #kinds = new Map<string, KindDefinition>();

  constructor(definitions: readonly KindDefinition[]) {
    for (const definition of definitions) this.register(definition);
  }

  register(definition: KindDefinition): void {
    if (!KIND_NAME.test(definition.name)) throw new Error(`Invalid kind name "${definition.name}".`);
    if (this.#kinds.has(definition.name)) throw new Error(`Kind "${definition.name}" is already registered.`);
    this.#kinds.set(definition.name, definition);
  }

  get(name: string): KindDefinition {
    const definition = this.#kinds.get(name);
    if (!definition) {
      throw new ValidationError(`Unknown kind "${name}". Known kinds: ${this.names().join(", ")}.`, [
        { path: ["kind"], message: "unknown kind" },
      ]);
    }
    return definition;
  }

  names(): string[] {
    return [...this.#kinds.keys()];
  }
}

/** The built-in kinds plus any custom ones (a custom kind may not reuse a built-in name). */
export function createKindRegistry(custom: readonly KindDefinition[] = []): KindRegistry {
  return new KindRegistry([...builtInKinds, ...custom]);
}

export const defaultKinds = createKindRegistry();

export interface PreparedContent {
  content: unknown;
  text: string;
  contentHash: string;
}

/** Validates content against its kind and derives the searchable text and the suppression hash. */
export function prepareContent(kinds: KindRegistry, kind: string, raw: unknown): PreparedContent {
  const definition = kinds.get(kind);
  const bytes = Buffer.byteLength(JSON.stringify(raw ?? null), "utf8");
  if (bytes > LIMITS.contentBytes) throw new PayloadTooLargeError(bytes, LIMITS.contentBytes);
  const input = kind === "memory" && typeof raw === "string" ? { content: raw } : raw;
  const parsed = definition.schema.safeParse(input);
  if (!parsed.success) {
    throw new ValidationError(
      `Content does not match kind "${kind}".`,
      parsed.error.issues.map((issue) => ({
        path: ["content", ...issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment))],
        message: issue.message,
      })),
    );
  }
  const text = definition.render(parsed.data).trim();
  return { content: parsed.data, text, contentHash: contentHash(text) };
}

/** sha256 of the text with case, Unicode form and whitespace normalised, so restatements of a fact collide. */
/** A fact's text with case, spacing and punctuation set aside: two texts with the same key state the same fact. */
export function factKey(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export function contentHash(text: string): string {
  const normalized = text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
  return createHash("sha256").update(normalized).digest("hex");
}
