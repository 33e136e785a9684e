import { trimEnd } from "@/lib/text/trim";

/** Pronouns and verb forms that turn the user's own words into a fact about the user, read out of context. */

const INNER: Array<[RegExp, string]> = [
  [/\bmyself\b/gi, "themselves"],
  [/\bmine\b/gi, "theirs"],
  [/\bmy\b/gi, "their"],
  [/\bme\b/gi, "them"],
  [/\bi(?:['’]m|\s+am)\b/gi, "they are"],
  [/\bi['’]ve\b/gi, "they have"],
  [/\b[Ii]\s+was\b/g, "they were"],
  [/\b[Ii]\s+wasn['’]t\b/g, "they weren't"],
  // "I", and "i" as people type it in chat ("and i want to…"); not the "i" of "i.e.", "i-th" or "i/o", nor a numeral or
  // a letter named ("type I diabetes", "part i", "a band called i").
  [
    /(?<!\b(?:type|stage|grade|part|episode|level|class|chapter|volume|phase|war|named|called|letter|apartment)\s)\b[Ii]\b(?![./-]\w)/gi,
    "they",
  ],
  // "we" and "our" include the user: "with my partner and our cat" → "with their partner and their cat".
  [/\bours\b/gi, "theirs"],
  [/\bour\b/gi, "their"],
  [/\bwe(?:['’]re|\s+are)\b/gi, "they are"],
  [/\bwe['’]ve\b/gi, "they have"],
  [/\bwe\b/gi, "they"],
];

/** Pronouns inside a fact about the user: "with my sister" → "with their sister". */
export function innerPronouns(text: string) {
  let result = text;
  for (const [pattern, replacement] of INNER) result = result.replace(pattern, replacement);
  return result;
}

/** Pronouns inside an instruction to the assistant: "never call me Bob" → "never call the user Bob". */
export function instructionPronouns(text: string) {
  return text
    .replace(/\b(?:me|myself)\b/gi, "the user")
    .replace(/\b(?:my|mine)\b/gi, "the user's")
    .replace(/\bi(?:['’]m|\s+am)\b/gi, "the user is")
    .replace(/\bI\b/g, "the user");
}

/** Third-person singular of an English verb, good enough for the verbs people state facts with. */
export function conjugate(verb: string) {
  const lower = verb.toLowerCase();
  if (lower === "have") return "has";
  if (/(s|sh|ch|x|z|o)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

export function stripTrailing(text: string) {
  return trimEnd(text.trim(), ".!?…");
}

export function capitalize(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
