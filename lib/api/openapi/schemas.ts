// zod schemas as the OpenAPI document's JSON Schemas, and the error responses every operation may give.

import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Malformed JSON, a body that is not UTF-8, or JSON nested deeper than 64 levels.",
  401: "No session and no key, or a malformed, unknown, revoked or expired key.",
  403: "The key lacks the scope, or a key was used where only a session may act.",
  404: "Not found, or not the caller's.",
  409: "Stale expectedVersion or a state conflict.",
  413: "The body is larger than 64 KB.",
  415: "The body is not sent as Content-Type: application/json (UTF-8).",
  422: "Invalid input; `details` lists the issues.",
  429: "The rate limit of the key, or of the signed-in user; see Retry-After.",
};

/**
 * zod's JSON Schema puts shared and recursive parts in a local `$defs`; OpenAPI resolves `$ref`s from the document
 * root, so they move to components.schemas (named ones keep their name, anonymous ones get the operation's prefix).
 */
export class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, prefix: string, io: "input" | "output"): JsonSchema {
    const { $schema: _, $defs, ...root } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
    const rename = (name: string) => (name.startsWith("__") ? `${prefix}${name.replace(/^_+/, "_")}` : name);
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value === null || typeof value !== "object") return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) =>
          key === "$ref" && typeof inner === "string" && inner.startsWith("#/$defs/")
            ? [key, `#/components/schemas/${rename(inner.slice("#/$defs/".length))}`]
            : [key, rewrite(inner)],
        ),
      );
    };
    for (const [name, definition] of Object.entries(($defs as Record<string, JsonSchema> | undefined) ?? {})) {
      this.components[rename(name)] = rewrite(definition) as JsonSchema;
    }
    return rewrite(root) as JsonSchema;
  }
}
