// Writes the variable reference in docs/configuration.md (between its markers) and .env.example from
// lib/config/schema.ts: `npm run docs:config`. tests/unit/config.test.ts fails while either is out of date.
import { readFileSync, writeFileSync } from "node:fs";
import { renderEnvExample, withReference } from "../lib/config/reference";

const PAGE = "docs/configuration.md";
writeFileSync(PAGE, withReference(readFileSync(PAGE, "utf8")));
writeFileSync(".env.example", renderEnvExample());
console.log(`wrote ${PAGE} and .env.example`);
