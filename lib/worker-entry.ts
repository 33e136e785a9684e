import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The URL of a worker thread's entry file, given from the app's root: a server bundle cannot carry a worker's entry
 * file, so Piscina starts it from the working directory, which is the app's root wherever the app runs (`npm run dev`,
 * `npm start`, `npm run worker`, the tests). next.config.ts says why Piscina stays out of the bundle.
 */
export function workerEntry(fromRoot: string): string {
  return pathToFileURL(path.join(process.cwd(), fromRoot)).href;
}
