import type { z } from "zod";
import {
  episodeContent,
  memoryContent,
  preferenceContent,
  procedureContent,
  tripleContent,
} from "@/lib/memory/contract";

/** One input of a kind's edit form. */
export interface KindField {
  name: string;
  label: string;
  required: boolean;
  multiline: boolean;
}

const field = (name: string, label: string, required = true, multiline = false): KindField => ({
  name,
  label,
  required,
  multiline,
});

/** Kinds edited field by field; every other kind (profile, custom kinds) is edited as a JSON document. */
export const KIND_FORMS: Record<string, { fields: KindField[]; schema: z.ZodType }> = {
  memory: { fields: [field("content", "Content", true, true)], schema: memoryContent },
  preference: {
    fields: [field("subject", "Subject", false), field("preference", "Preference"), field("context", "Context", false)],
    schema: preferenceContent,
  },
  episode: {
    fields: [
      field("observation", "Observation", true, true),
      field("thoughts", "Thoughts", true, true),
      field("action", "Action", true, true),
      field("result", "Result", true, true),
    ],
    schema: episodeContent,
  },
  procedure: { fields: [field("rule", "Rule", true, true), field("when", "When", false)], schema: procedureContent },
  triple: {
    fields: [
      field("subject", "Subject"),
      field("predicate", "Predicate"),
      field("object", "Object"),
      field("context", "Context", false),
    ],
    schema: tripleContent,
  },
};

/** The form's values for a kind's content (empty strings for absent optional fields). */
export function fieldValues(kind: string, content: unknown): Record<string, string> {
  const form = KIND_FORMS[kind];
  const record = (content ?? {}) as Record<string, unknown>;
  if (!form) return { json: JSON.stringify(content ?? {}, null, 2) };
  return Object.fromEntries(
    form.fields.map((f) => [f.name, typeof record[f.name] === "string" ? record[f.name] : ""]),
  ) as Record<string, string>;
}

export type ContentParse = { ok: true; content: unknown } | { ok: false; errors: Record<string, string> };

/** Builds and validates content from form values: empty optional fields are left out, JSON kinds are parsed. */
export function contentFromValues(kind: string, values: Record<string, string>): ContentParse {
  const form = KIND_FORMS[kind];
  if (!form) {
    try {
      return { ok: true, content: JSON.parse(values.json ?? "") };
    } catch {
      return { ok: false, errors: { json: "This is not valid JSON." } };
    }
  }
  const content = Object.fromEntries(
    form.fields.flatMap((f) => {
      const value = (values[f.name] ?? "").trim();
      return value || f.required ? [[f.name, value]] : [];
    }),
  );
  const parsed = form.schema.safeParse(content);
  if (parsed.success) return { ok: true, content: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? "content");
    errors[key] ??= issue.code === "too_small" ? "Required." : issue.message;
  }
  return { ok: false, errors };
}

/** Input problems keyed by form field: content issues arrive as ["content", field, …], the form names inputs by field. */
export function fieldErrorsOf(details: ReadonlyArray<{ path: readonly (string | number)[]; message: string }>) {
  const errors: Record<string, string> = {};
  for (const detail of details) {
    const inContent = detail.path[0] === "content";
    const path = inContent ? detail.path.slice(1) : detail.path;
    const key = path.map(String).join(".") || (inContent ? "content" : "form");
    errors[key] ??= detail.message;
  }
  return errors;
}
