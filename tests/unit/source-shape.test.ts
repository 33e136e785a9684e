import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The shape a newcomer can walk (docs/architecture.md): files small enough to read whole, and lib/memory as wings
// reached through their faces.

const ROOT = path.resolve(import.meta.dirname, "../..");
const MAX_LINES = 450;

/** Files allowed past MAX_LINES, each with why it stays whole. */
const LONG_FILES: Record<string, string> = {
  "lib/db/schema.ts": "the table definitions: one data table a reader looks up, not logic to follow",
};

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(ROOT, directory)).flatMap((name) => {
    const relative = path.posix.join(directory, name);
    if (statSync(path.join(ROOT, relative)).isDirectory()) return sourceFiles(relative);
    return /\.tsx?$/.test(name) ? [relative] : [];
  });
}

const MAX_FUNCTION_LINES = 80;

/** Functions of `file` longer than MAX_FUNCTION_LINES, as `file:line name (n lines)`. */
function longFunctions(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
      const named = node.name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
      if (lines > MAX_FUNCTION_LINES)
        found.push(`${file}:${first + 1} ${named?.getText(source) ?? "(anonymous)"} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const lineCount = (file: string) => readFileSync(path.join(ROOT, file), "utf8").split("\n").length;

/** The names a module exports by name (the faces export nothing else). */
function exportedNames(file: string): Set<string> {
  const source = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest);
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) names.add(element.name.text);
    }
  }
  return names;
}

/** Every `import { … } from "<specifier>"` of a file, with the names it takes. */
function namedImports(file: string): Array<{ specifier: string; names: string[] }> {
  const source = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const bindings = statement.importClause?.namedBindings;
    const names =
      bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => (e.propertyName ?? e.name).text) : [];
    return [{ specifier: statement.moduleSpecifier.text, names }];
  });
}

describe("the source's shape", () => {
  it(`has no file in lib/ over ${MAX_LINES} lines but the named exceptions`, () => {
    const long = sourceFiles("lib").filter((file) => lineCount(file) > MAX_LINES && !(file in LONG_FILES));
    expect(long).toEqual([]);
  });

  it(`has no function in lib/ over ${MAX_FUNCTION_LINES} lines: a long one is split into named steps`, () => {
    expect(sourceFiles("lib").flatMap(longFunctions)).toEqual([]);
  });

  it("lists as exceptions only files that still need to be", () => {
    const needless = Object.keys(LONG_FILES).filter((file) => lineCount(file) <= MAX_LINES);
    expect(needless).toEqual([]);
  });

  it("keeps lib/memory as wings, each with a face", () => {
    const entries = readdirSync(path.join(ROOT, "lib/memory"), { withFileTypes: true });
    expect(entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
    const faceless = entries.filter(
      (entry) => !sourceFiles(`lib/memory/${entry.name}`).includes(`lib/memory/${entry.name}/index.ts`),
    );
    expect(faceless.map((entry) => entry.name)).toEqual([]);
  });

  // Lint refuses deep imports everywhere but tests/ (biome.json), which may reach a wing's internals: only for what
  // its face does not export, so a test meets the app's way in wherever there is one.
  it("has tests take from a wing's face whatever the face exports", () => {
    const faces = new Map<string, Set<string>>();
    const past: string[] = [];
    for (const file of sourceFiles("tests")) {
      for (const { specifier, names } of namedImports(file)) {
        const wing = /^@\/lib\/memory\/([^/]+)\/.+/.exec(specifier)?.[1];
        if (!wing) continue;
        if (!faces.has(wing)) faces.set(wing, exportedNames(`lib/memory/${wing}/index.ts`));
        const face = faces.get(wing)!;
        for (const name of names) if (face.has(name)) past.push(`${file}: ${name} from ${specifier}`);
      }
    }
    expect(faces.size).toBeGreaterThan(0);
    expect(past).toEqual([]);
  });
});
