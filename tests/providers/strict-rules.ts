/**
 * What each provider's strict structured-output mode does with a JSON schema, as a checker: one finding per node and
 * keyword that the provider rejects, or accepts without enforcing.
 *
 * Sources (read 2026): OpenAI Structured Outputs "Supported schemas" (strict json_schema: objects closed and fully
 * required, anyOf but no oneOf/allOf/not, every node typed — API errors "'oneOf' is not permitted", "schema must have a
 * 'type' key", "'required' is required to be supplied and to be an array including every key in properties"; string
 * keywords documented: pattern and format only). Anthropic structured outputs "JSON Schema limitations"
 * (output_config.format and strict tools: additionalProperties false on every object; no numeric or length bounds, no
 * maxItems, minItems only 0 or 1; anyOf/allOf but not oneOf; no recursion; at most 24 optional parameters and 16
 * parameters with anyOf or type arrays across strict schemas) and @ai-sdk/anthropic's sanitizeJsonSchema, which moves
 * those bounds into descriptions and rewrites oneOf as anyOf. Gemini `generationConfig.responseJsonSchema` field
 * reference (only $id, $defs, $ref, $anchor, type, format, title, description, enum for strings and numbers, items,
 * prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf read as anyOf, properties, additionalProperties,
 * required, propertyOrdering are supported; a $ref node takes no other keywords).
 */

export type StrictTarget = "openai" | "anthropic" | "google";

type Node = Record<string, unknown>;

const OPENAI_NOT_PERMITTED = [
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "unevaluatedProperties",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "unevaluatedItems",
  "contains",
  "minContains",
  "maxContains",
  "uniqueItems",
];
const OPENAI_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

const ANTHROPIC_UNSUPPORTED = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "patternProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "contains",
];
const ANTHROPIC_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "uri",
  "ipv4",
  "ipv6",
  "uuid",
]);
const ANTHROPIC_MAX_UNION_PARAMETERS = 16;
const ANTHROPIC_MAX_OPTIONAL_PARAMETERS = 24;
/** Above this many optional properties @ai-sdk/anthropic stops using native structured output (JSON-tool fallback). */
const AI_SDK_ANTHROPIC_NATIVE_MAX_OPTIONAL = 10;

const GOOGLE_SUPPORTED = new Set([
  "$id",
  "$defs",
  "$ref",
  "$anchor",
  // Not in Google's list, but the AI SDK sends it with every schema and Gemini accepts it.
  "$schema",
  "type",
  "format",
  "title",
  "description",
  "enum",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "anyOf",
  "oneOf",
  "properties",
  "additionalProperties",
  "required",
  "propertyOrdering",
]);

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);
const typesOf = (node: Node) => (Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type]);
const isObjectNode = (node: Node) => typesOf(node).includes("object") || isNode(node.properties);
/** A node with a type, a reference, or a combinator (whose own findings, if any, come from the combinator). */
const isTyped = (node: Node) =>
  node.type !== undefined ||
  typeof node.$ref === "string" ||
  ["anyOf", "oneOf", "allOf"].some((keyword) => Array.isArray(node[keyword]));

/** Every subschema of `node`, with its path. */
function children(node: Node, path: string): Array<[Node, string]> {
  const found: Array<[Node, string]> = [];
  for (const [key, child] of Object.entries(isNode(node.properties) ? node.properties : {})) {
    if (isNode(child)) found.push([child, `${path}.${key}`]);
  }
  if (isNode(node.items)) found.push([node.items, `${path}[]`]);
  if (isNode(node.additionalProperties)) found.push([node.additionalProperties, `${path}.additionalProperties`]);
  for (const keyword of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
    const list = node[keyword];
    if (!Array.isArray(list)) continue;
    list.forEach((child, i) => {
      if (isNode(child)) found.push([child, `${path}.${keyword}[${i}]`]);
    });
  }
  for (const keyword of ["$defs", "definitions"]) {
    const defs = node[keyword];
    for (const [key, child] of Object.entries(isNode(defs) ? defs : {})) {
      if (isNode(child)) found.push([child, `${path}.${keyword}.${key}`]);
    }
  }
  return found;
}

function walk(schema: Node, visit: (node: Node, path: string) => void, path = "$") {
  visit(schema, path);
  for (const [child, childPath] of children(schema, path)) walk(child, visit, childPath);
}

/** Objects must be closed and list every property as required (OpenAI), or be closed (Anthropic). */
function closedObjectFindings(node: Node, path: string, requireAll: boolean): string[] {
  if (!isObjectNode(node)) return [];
  const findings: string[] = [];
  if (node.additionalProperties !== false) findings.push(`${path}: additionalProperties must be false`);
  if (requireAll) {
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    const missing = Object.keys(isNode(node.properties) ? node.properties : {}).filter((key) => !required.has(key));
    if (missing.length) findings.push(`${path}: required must list every property (missing ${missing.join(", ")})`);
  }
  return findings;
}

function openaiFindings(schema: Node): string[] {
  const findings: string[] = [];
  if (schema.type !== "object") findings.push("$: the root must be an object");
  if (schema.anyOf) findings.push("$: the root must not be anyOf");
  walk(schema, (node, path) => {
    for (const keyword of OPENAI_NOT_PERMITTED) {
      if (node[keyword] !== undefined) findings.push(`${path}: '${keyword}' is not permitted (HTTP 400)`);
    }
    for (const keyword of ["minLength", "maxLength"]) {
      if (node[keyword] !== undefined) {
        findings.push(`${path}: '${keyword}' is not a documented strict keyword (strings take pattern and format)`);
      }
    }
    if (!isTyped(node)) findings.push(`${path}: no type ('schema must have a type key', HTTP 400)`);
    if (typeof node.format === "string" && !OPENAI_FORMATS.has(node.format)) {
      findings.push(`${path}: format '${node.format}' is not supported`);
    }
    findings.push(...closedObjectFindings(node, path, true));
  });
  return findings;
}

function anthropicFindings(schema: Node): string[] {
  const findings: string[] = [];
  let optional = 0;
  let unions = 0;
  walk(schema, (node, path) => {
    for (const keyword of ANTHROPIC_UNSUPPORTED) {
      if (node[keyword] !== undefined) {
        findings.push(`${path}: '${keyword}' is not supported (the AI SDK moves it into the description, unenforced)`);
      }
    }
    if (typeof node.minItems === "number" && node.minItems > 1) {
      findings.push(
        `${path}: minItems above 1 is not supported (the AI SDK moves it into the description, unenforced)`,
      );
    }
    if (node.oneOf !== undefined) findings.push(`${path}: 'oneOf' is not supported (the AI SDK rewrites it as anyOf)`);
    if (!isTyped(node)) findings.push(`${path}: no type (outside the documented subset; the value is not constrained)`);
    if (typeof node.format === "string" && !ANTHROPIC_FORMATS.has(node.format)) {
      findings.push(`${path}: format '${node.format}' is not supported`);
    }
    if (isNode(node.properties)) {
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      const properties = Object.entries(node.properties);
      optional += properties.filter(([key]) => !required.has(key)).length;
      unions += properties.filter(
        ([, child]) => isNode(child) && (Array.isArray(child.anyOf) || Array.isArray(child.type)),
      ).length;
    }
    findings.push(...closedObjectFindings(node, path, false));
  });
  if (unions > ANTHROPIC_MAX_UNION_PARAMETERS) {
    findings.push(`$: ${unions} parameters use anyOf or type arrays (limit ${ANTHROPIC_MAX_UNION_PARAMETERS})`);
  }
  if (optional > ANTHROPIC_MAX_OPTIONAL_PARAMETERS) {
    findings.push(`$: ${optional} optional parameters (limit ${ANTHROPIC_MAX_OPTIONAL_PARAMETERS})`);
  } else if (optional > AI_SDK_ANTHROPIC_NATIVE_MAX_OPTIONAL) {
    findings.push(`$: ${optional} optional parameters: the AI SDK falls back to the JSON tool (more than 10)`);
  }
  return findings;
}

function googleFindings(schema: Node): string[] {
  const findings: string[] = [];
  walk(schema, (node, path) => {
    for (const keyword of Object.keys(node)) {
      if (GOOGLE_SUPPORTED.has(keyword)) continue;
      const note = keyword === "const" ? " (the AI SDK rewrites it as a one-value enum)" : " (ignored, unenforced)";
      findings.push(`${path}: '${keyword}' is not supported${note}`);
    }
    if (node.oneOf !== undefined) findings.push(`${path}: 'oneOf' is read as anyOf (exclusivity unenforced)`);
    if (Array.isArray(node.enum) && node.enum.some((value) => typeof value !== "string" && typeof value !== "number")) {
      findings.push(`${path}: enum values must be strings or numbers`);
    }
    if (typeof node.$ref === "string" && Object.keys(node).some((key) => !key.startsWith("$"))) {
      findings.push(`${path}: a $ref node takes no other keywords`);
    }
    if (!isTyped(node) && node.enum === undefined) {
      findings.push(`${path}: no type (the value is not constrained)`);
    }
  });
  return findings;
}

/** The findings of `target`'s strict structured-output mode for `schema`, as "path: problem" lines. */
export function strictFindings(schema: unknown, target: StrictTarget): string[] {
  if (!isNode(schema)) return ["$: not a JSON schema object"];
  if (target === "openai") return openaiFindings(schema);
  if (target === "anthropic") return anthropicFindings(schema);
  return googleFindings(schema);
}
