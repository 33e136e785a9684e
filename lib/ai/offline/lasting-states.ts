/**
 * What follows "I'm" or "I was" in a statement of the offline reader (./statements.ts): a state that lasts ("allergic
 * to peanuts", "a nurse", "from Lisbon") is a fact; a passing one or part of the conversation ("fine", "not sure",
 * "looking for …") is not.
 */

/**
 * What follows "I'm" or "I was" when it is a passing state or part of the conversation ("I'm fine", "I'm not sure",
 * "I'm looking for…"), not something to remember.
 */
const PASSING_STATES = new Set(
  (
    "fine good great ok okay alright well tired sleepy bored busy sorry sure unsure confused lost back here there " +
    "done ready happy glad sad excited curious kidding joking serious thankful grateful worried stressed hungry " +
    "thirsty cold hot late early up down in out off on about able gonna going trying looking wondering asking " +
    "thinking hoping getting doing talking saying waiting feeling leaving heading coming telling just"
  ).split(" "),
);
/** "I'm afraid of heights" and "I'm interested in history" are lasting; "I'm afraid so" is not. */
const STATE_WITH_OBJECT = new Map([
  ["afraid", "of"],
  ["interested", "in"],
  ["a", ""],
  ["an", ""],
  ["the", ""],
]);
/** A plan with its day, worth keeping until that day passes: "going to a conference in Madrid on 2027-01-03". */
const PLAN_OPENING = /^(?:going|leaving|heading|travelling|traveling|off)\s/i;
const ISO_DAY = /\b\d{4}-\d{2}-\d{2}\b/;

/** Whether what follows "I'm" or "I was" lasts: "allergic to peanuts", "a nurse", "from Lisbon"; not "fine". */
export function lastingState(complement: string): boolean {
  if (PLAN_OPENING.test(complement) && ISO_DAY.test(complement)) return true;
  const words = complement.toLowerCase().split(/[\s,;:]+/);
  let index = 0;
  while (
    index < words.length - 1 &&
    /^(?:not|really|very|so|quite|pretty|also|actually|just|now|still)$/.test(words[index]!)
  )
    index++;
  const word = words[index]!;
  const object = STATE_WITH_OBJECT.get(word);
  if (object !== undefined) {
    // "a nurse", "an engineer": an article starts a lasting identity unless it only softens ("a bit tired").
    if (object === "")
      return words.length > index + 1 && !/^(?:bit|little|lot|few|moment|second|while)$/.test(words[index + 1]!);
    return words[index + 1] === object;
  }
  return !PASSING_STATES.has(word) && !/^(?:kind|sort)$/.test(word);
}
