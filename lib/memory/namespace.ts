import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { NamespaceTemplateError } from "./errors";
import { validateNamespace } from "./namespace-rules";

export { parseDottedNamespace, validateNamespace } from "./namespace-rules";

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

/** A parameterised `text[]` literal; drizzle would otherwise expand a JS array into a parameter list. */
export function textArray(values: readonly string[]): SQL {
  if (values.length === 0) return sql`array[]::text[]`;
  return sql`array[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::text[]`;
}

/** Whole-segment prefix match on a `text[]` column: `["users","1"]` never matches `["users","10"]`. */
export function namespaceHasPrefix(column: AnyColumn | SQL, prefix: Namespace): SQL {
  if (prefix.length === 0) return sql`true`;
  return sql`${column}[1:${sql.raw(String(prefix.length))}] = ${textArray(prefix)}`;
}
