// wink-lexicon ships its tables as CommonJS data modules without types.
declare module "wink-lexicon/src/irregular-verbs.js" {
  /** Every form of an irregular verb, base form included, to its base form ("saw" → "see"). */
  const verbs: Readonly<Record<string, string>>;
  export default verbs;
}

declare module "wink-lexicon/src/irregular-nouns.js" {
  /** Irregular plurals to singulars and back ("children" ↔ "child"). */
  const nouns: { singular: Readonly<Record<string, string>>; plural: Readonly<Record<string, string>> };
  export default nouns;
}
