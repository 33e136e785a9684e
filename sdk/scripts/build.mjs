// Builds sdk/dist: tsc compiles sdk/src together with the server's zod-only schema modules it imports (lib/…), as
// ESM with declarations. tsc leaves import specifiers as written, so they are then made loadable by Node's ESM
// resolver: `@/lib/x` becomes a relative path, and every relative import gets its `.js`. Finally every bare import
// is checked against the package's dependencies, so a schema module that starts importing the database fails the
// build instead of shipping.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const sdk = path.resolve(import.meta.dirname, "..");
const dist = path.join(sdk, "dist");
const allowed = ["zod", "ai", "@langchain/langgraph-checkpoint"];

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", path.join(sdk, "tsconfig.json")], { stdio: "inherit" });

// `from "x"` after an import or export clause, `import("x")`, and a bare `import "x"`; never a string in code.
const SPECIFIER = /(?<=^|[\s};])(from\s*|import\s*\(\s*|import\s+)(["'])([\w@./-]+)\2/gm;
const problems = [];

function loadable(file, specifier) {
  if (!specifier.startsWith("@/") && !specifier.startsWith(".")) {
    const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
    if (!allowed.includes(name)) problems.push(`${path.relative(dist, file)} imports ${specifier}`);
    return specifier;
  }
  const target = specifier.startsWith("@/")
    ? path.join(dist, specifier.slice(2))
    : path.resolve(path.dirname(file), specifier);
  const resolved = existsSync(`${target}.js`)
    ? `${target}.js`
    : existsSync(path.join(target, "index.js"))
      ? path.join(target, "index.js")
      : undefined;
  if (!resolved) {
    problems.push(`${path.relative(dist, file)} imports ${specifier}, which was not compiled`);
    return specifier;
  }
  const relative = path.relative(path.dirname(file), resolved).split(path.sep).join("/");
  return relative.startsWith(".") ? relative : `./${relative}`;
}

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (full.endsWith(".js") || full.endsWith(".d.ts")) yield full;
  }
}

for (const file of files(dist)) {
  const source = readFileSync(file, "utf8");
  const rewritten = source.replace(
    SPECIFIER,
    (_, lead, quote, specifier) => `${lead}${quote}${loadable(file, specifier)}${quote}`,
  );
  if (rewritten !== source) writeFileSync(file, rewritten);
}

if (problems.length > 0) {
  console.error(`The SDK may import only ${allowed.join(", ")} and its own modules:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`built ${path.relative(process.cwd(), dist)}`);
