// `npm run worker`: the standalone worker, from its bundle (./worker-bundle.mjs says why).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { workerBundle } from "./worker-bundle.mjs";

const { bundle } = await workerBundle();
await import(pathToFileURL(path.resolve(bundle)).href);
