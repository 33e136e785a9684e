import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The URL of a worker thread's entry file, given from the app's root: a server bundle cannot carry a worker's entry
 * file, so Piscina starts it from the app's directory at run time (next.config.ts).
 */
export function workerEntry(fromRoot: string): string {
  return pathToFileURL(path.join(process.cwd(), fromRoot)).href;
}
