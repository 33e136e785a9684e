import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { validateNamespace } from "@/lib/memory/contract";
import { NamespaceTemplateError } from "./errors";

export type Namespace = readonly string[];
export type NamespaceTemplate = readonly string[];

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Fills `{name}` placeholders (a whole segment or part of one) from `values`. A missing or empty value throws
 * NamespaceTemplateError instead of producing a shared namespace such as `["memories", ""]`.
 */
export function resolveNamespaceTemplate(
  template: NamespaceTemplate,
  values: Readonly<Record<string, string | undefined>>,
): string[] {
  const resolved = template.map((segment) =>
    segment.replace(PLACEHOLDER, (_, key: string) => {
      const value = values[key];
      if (value === undefined || value === "") throw new NamespaceTemplateError(template, key);
      return value;
    }),
  );
  return validateNamespace(resolved);
}

/** Prepends the principal's root: everything a principal touches lives under it. */
export function absoluteNamespace(root: Namespace, relative: Namespace): string[] {
  return [...root, ...validateNamespace(relative)];
}

/** Strips the principal's root from a stored namespace. */
export function relativeNamespace(root: Namespace, absolute: Namespace): string[] {
  const underRoot = root.every((segment, index) => absolute[index] === segment);
  if (!underRoot) throw new Error("A stored namespace lies outside the principal's root.");
  return absolute.slice(root.length);
}

/** What an array literal's quoted element must escape with a backslash. */
const ARRAY_SPECIAL = /["\\]/;

/**
 * `values` as one `text[]` parameter, written as an array literal: the statement's text is then the same however many
 * values there are, so PostgreSQL parses and plans it once per connection, not once per count.
 */
export function textArray(values: readonly string[]): SQL {
  let literal = "{";
  for (const [index, value] of values.entries()) {
    literal += `${index === 0 ? "" : ","}"${ARRAY_SPECIAL.test(value) ? value.replace(/["\\]/g, "\\$&") : value}"`;
  }
  return sql`${`${literal}}`}::text[]`;
}

/** `values` as one `int[]` parameter (see textArray). */
export function intArray(values: readonly number[]): SQL {
  return sql`${`{${values.map((value) => Math.trunc(value)).join(",")}}`}::int[]`;
}

/** Whole-segment prefix match on a `text[]` column: `["users","1"]` never matches `["users","10"]`. */
export function namespaceHasPrefix(column: AnyColumn | SQL, prefix: Namespace): SQL {
  if (prefix.length === 0) return sql`true`;
  return sql`${column}[1:${sql.raw(String(prefix.length))}] = ${textArray(prefix)}`;
}
