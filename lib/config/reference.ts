import { GROUPS, VARIABLES, type Variable } from "./schema";

/** Where docs/configuration.md holds the generated reference; everything outside the markers is written by hand. */
export const REFERENCE_START =
  "<!-- config-reference:start: generated from lib/config/schema.ts by `npm run docs:config`; edit there -->";
export const REFERENCE_END = "<!-- config-reference:end -->";

const variables = Object.entries(VARIABLES) as [string, Variable][];

/** A markdown table whose columns line up in the source too. */
function table(header: string[], rows: string[][]): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const all = [header, ...rows].map((row) => row.map(cell));
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column]?.length ?? 0)));
  const line = (row: string[]) => `| ${row.map((text, column) => text.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  const rule = `| ${widths.map((width) => "-".repeat(width)).join(" | ")} |`;
  return [line(all[0] ?? []), rule, ...all.slice(1).map(line)].join("\n");
}

/** The variable reference: one table per group, every variable with what it takes, its default and what it does. */
export function renderReference(): string {
  const sections = GROUPS.map((group) => {
    const rows = variables
      .filter(([, variable]) => variable.group === group)
      .map(([name, variable]) => [`\`${name}\``, variable.default, variable.accepts, variable.description]);
    return `### ${group}\n\n${table(["Variable", "Default", "Accepts", "Meaning"], rows)}`;
  });
  return sections.join("\n\n");
}

/** `page` with the text between its reference markers replaced by the current reference. */
export function withReference(page: string): string {
  const start = page.indexOf(REFERENCE_START);
  const end = page.indexOf(REFERENCE_END);
  if (start < 0 || end < start) throw new Error(`The page has no "${REFERENCE_START}" … "${REFERENCE_END}" markers.`);
  return `${page.slice(0, start + REFERENCE_START.length)}\n\n${renderReference()}\n\n${page.slice(end)}`;
}

/** .env.example: every variable a deployment may set, blank (which means unset), under its description. */
export function renderEnvExample(): string {
  const lines = [
    "# Generated from lib/config/schema.ts by `npm run docs:config`; docs/configuration.md explains every variable.",
    "# All are optional for `npm run dev`: with none set the app runs on embedded PGlite and the offline model.",
    "# A blank value is the same as an unset one.",
  ];
  for (const group of GROUPS) {
    const members = variables.filter(([, variable]) => variable.group === group && variable.envFile !== false);
    if (members.length === 0) continue;
    lines.push("", `# ${group}`);
    for (const [name, variable] of members) {
      lines.push("", `# ${variable.description}.`, `# Accepts ${variable.accepts}; default ${variable.default}.`);
      lines.push(`${name}=`);
    }
  }
  return `${lines.join("\n")}\n`;
}
