import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** One regular expression written in the sources: where it is, and its pattern and flags as the engine sees them. */
export interface FoundPattern {
  /** "lib/ai/offline/statements.ts:112" */
  at: string;
  source: string;
  flags: string;
}

/** A `RegExp` built at run time from something that is not a literal, which no checker can see. */
export interface BuiltPattern {
  at: string;
  /** The enclosing function or variable, so an allow-list entry survives edits that move lines. */
  owner: string;
  code: string;
}

const STRING_REGEX_METHODS = new Set(["match", "matchAll", "search"]);

/** Every .ts and .tsx file under `dir` (node_modules and generated folders aside), as paths relative to `root`. */
export function typeScriptFiles(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  const entries = readdirSync(full, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts"))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes("node_modules"))
    .sort();
}

/**
 * Reads the regular expressions of one file with the TypeScript parser (not a text search, so a slash in a string,
 * a comment or a division is never taken for a pattern): regex literals, `new RegExp(…)` / `RegExp(…)` whose
 * arguments are literals, and a string literal handed to `match`, `matchAll` or `search` (which the engine compiles
 * as a pattern). A `RegExp` built from anything else is returned apart.
 */
export function patternsIn(root: string, file: string): { patterns: FoundPattern[]; built: BuiltPattern[] } {
  return patternsInSource(file, readFileSync(path.join(root, file), "utf8"));
}

/** The same, for the text of a file named `file`. */
export function patternsInSource(file: string, text: string): { patterns: FoundPattern[]; built: BuiltPattern[] } {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const patterns: FoundPattern[] = [];
  const built: BuiltPattern[] = [];
  const at = (node: ts.Node) =>
    `${file.split(path.sep).join("/")}:${sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1}`;

  const visit = (node: ts.Node) => {
    if (ts.isRegularExpressionLiteral(node)) {
      const literal = node.text;
      const end = literal.lastIndexOf("/");
      patterns.push({ at: at(node), source: literal.slice(1, end), flags: literal.slice(end + 1) });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && isRegExpConstructor(node.expression)) {
      const [pattern, flags] = node.arguments ?? [];
      const source = pattern && literalText(pattern);
      const flagText = flags === undefined ? "" : literalText(flags);
      if (source !== undefined && flagText !== undefined) patterns.push({ at: at(node), source, flags: flagText });
      else built.push({ at: at(node), owner: ownerOf(node), code: node.getText(sourceFile) });
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      STRING_REGEX_METHODS.has(node.expression.name.text) &&
      node.arguments.length === 1 &&
      literalText(node.arguments[0]!) !== undefined
    ) {
      patterns.push({ at: at(node), source: literalText(node.arguments[0]!)!, flags: "" });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return { patterns, built };
}

function isRegExpConstructor(expression: ts.Expression) {
  return ts.isIdentifier(expression) && expression.text === "RegExp";
}

function literalText(node: ts.Expression): string | undefined {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : undefined;
}

/** The name of the nearest named function, method or variable around `node`. */
function ownerOf(node: ts.Node): string {
  for (let current: ts.Node | undefined = node.parent; current; current = current.parent) {
    if (
      (ts.isFunctionDeclaration(current) ||
        ts.isMethodDeclaration(current) ||
        ts.isVariableDeclaration(current) ||
        ts.isPropertyAssignment(current)) &&
      current.name &&
      ts.isIdentifier(current.name)
    ) {
      return current.name.text;
    }
  }
  return "(top level)";
}
