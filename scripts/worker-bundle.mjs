// The standalone worker (scripts/worker.ts) as one bundled file, built when missing or stale. Through tsx, Node's
// module loader resolved each of the worker's thousands of imports among the package files around it at every start:
// 3.0 s of CPU and 2.4 s before the worker took jobs, against about 1 s of each from the bundle, so a worker that dies is
// replaced sooner (docs/configuration.md, "Running distributed").
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Packages that load WASM, data files or worker scripts from their own directories stay out, as in next.config.ts. */
const EXTERNAL = JSON.parse(readFileSync("lib/server/external-packages.json", "utf8"));
/** Read by the build without being bundled: the module paths, the lockfile's packages, the externals, this script. */
const BUILD_INPUTS = [
  "tsconfig.json",
  "package.json",
  "package-lock.json",
  "lib/server/external-packages.json",
  "scripts/worker-bundle.mjs",
];

/** A file's modification time, or null when there is none (a deployment without a lockfile). */
function modifiedAt(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Whether the bundle in `outDir` is current: every file it was built from still has the modification time it had
 * then (a file restored with an older time is a change too), and none was saved after the build began.
 */
function fresh(bundle, inputsFile) {
  try {
    const builtFrom = statSync(bundle).mtimeMs;
    const inputs = JSON.parse(readFileSync(inputsFile, "utf8"));
    return Object.entries(inputs).every(([file, mtime]) => {
      const now = modifiedAt(file);
      return now === mtime && (now === null || now <= builtFrom);
    });
  } catch {
    return false;
  }
}

/**
 * The path of the worker's bundle in `outDir` (relative to the project, the working directory), built first when
 * stale; `built` says whether it was. Building needs esbuild (a development dependency, as tsx was) and a writable
 * `outDir`; running a current bundle needs neither.
 */
export async function workerBundle(outDir = ".worker") {
  const bundle = path.join(outDir, "worker.mjs");
  const inputsFile = path.join(outDir, "inputs.json");
  if (fresh(bundle, inputsFile)) return { bundle, built: false };
  const startedAt = new Date();
  // Built in a directory of its own and moved over the old files: workers starting at once (in containers sharing the
  // project, even with one process id) each build, and either move leaves whole files.
  const scratch = path.join(outDir, `.build-${randomBytes(6).toString("hex")}`);
  mkdirSync(scratch, { recursive: true });
  const esbuild = await import("esbuild");
  try {
    const result = await esbuild.build({
      entryPoints: ["scripts/worker.ts"],
      outfile: path.join(scratch, "worker.mjs"),
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node22",
      external: EXTERNAL,
      // Stack traces in the logs name the source files (run-worker.mjs turns source maps on); errors keep their
      // class names, which the logs print.
      sourcemap: true,
      keepNames: true,
      // Bundled CommonJS packages call require() for Node's own modules, which an ES module has no binding for.
      // The shim's import is named apart from the sources' own (lib/ai/local-embedding.ts imports createRequire).
      banner: {
        js:
          "import { createRequire as bundleRequireFor } from 'node:module';" +
          " const require = bundleRequireFor(import.meta.url);",
      },
      metafile: true,
      logLevel: "warning",
    });
    const files = [...Object.keys(result.metafile.inputs), ...BUILD_INPUTS];
    const inputs = Object.fromEntries(files.map((file) => [file, modifiedAt(file)]));
    writeFileSync(path.join(scratch, "inputs.json"), JSON.stringify(inputs));
    // The bundle is as old as the build's start: a source saved while it ran is newer, and the next start rebuilds.
    utimesSync(path.join(scratch, "worker.mjs"), startedAt, startedAt);
    for (const name of ["worker.mjs.map", "worker.mjs", "inputs.json"]) {
      renameSync(path.join(scratch, name), path.join(outDir, name));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await esbuild.stop();
  }
  return { bundle, built: true };
}

// `npm run build:worker`: builds it ahead, for a deployment whose project directory the worker may not write.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { bundle, built } = await workerBundle();
  console.log(built ? `built ${bundle}` : `${bundle} is current`);
}
