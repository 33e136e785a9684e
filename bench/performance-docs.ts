import { writePage } from "./performance-page";

// `npm run docs:performance`: rewrites the generated part of docs/performance.md from bench/results.
writePage();
