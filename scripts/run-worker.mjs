// `npm run worker`: the standalone worker, from its bundle (./worker-bundle.mjs says why).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { workerBundle } from "./worker-bundle.mjs";

const { bundle } = await workerBundle();
// Stack frames name lib/ and node_modules files, as they did through tsx, instead of lines of the bundle.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.resolve(bundle)).href);
