// The standalone worker (scripts/worker.ts) as one bundled file, built when missing or older than any file it was
// built from. Through tsx, Node's module loader resolved each of the worker's thousands of imports among the package
// files around it at every start: 3.0 s of CPU and 2.4 s before the worker took jobs, against 0.8 s of each from the
// bundle, so a worker that dies is replaced sooner (docs/configuration.md, "Running distributed").
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

/** Packages that load WASM, data files or worker scripts from their own directories stay out, as in next.config.ts. */
const EXTERNAL = JSON.parse(readFileSync("lib/server/external-packages.json", "utf8"));

/** Every file the bundle in `outDir` was built from is older than it; false when there is none. */
function fresh(bundle, inputsFile) {
  try {
    const builtAt = statSync(bundle).mtimeMs;
    const inputs = JSON.parse(readFileSync(inputsFile, "utf8"));
    return inputs.every((file) => statSync(file).mtimeMs <= builtAt);
  } catch {
    return false;
  }
}

/**
 * The path of the worker's bundle in `outDir` (relative to the project, the working directory), built first when
 * stale; `built` says whether it was.
 */
export async function workerBundle(outDir = ".worker") {
  const bundle = path.join(outDir, "worker.mjs");
  const inputsFile = path.join(outDir, "inputs.json");
  if (fresh(bundle, inputsFile)) return { bundle, built: false };
  // Written under names of this process and renamed over the old: two workers starting at once each build, and
  // either rename leaves whole files.
  const suffix = `.${process.pid}.tmp`;
  const result = await build({
    entryPoints: ["scripts/worker.ts"],
    outfile: bundle + suffix,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    external: EXTERNAL,
    // Bundled CommonJS packages call require() for Node's own modules, which an ES module has no binding for.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    metafile: true,
    logLevel: "warning",
  });
  const inputs = [
    ...Object.keys(result.metafile.inputs),
    "package-lock.json",
    "lib/server/external-packages.json",
    "scripts/worker-bundle.mjs",
  ];
  writeFileSync(inputsFile + suffix, JSON.stringify(inputs));
  renameSync(bundle + suffix, bundle);
  renameSync(inputsFile + suffix, inputsFile);
  return { bundle, built: true };
}
