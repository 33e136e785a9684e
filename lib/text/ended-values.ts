import { type Slot, slotOf } from "./slots";
import { STANDING_SLOT_KEYS } from "./standing-values";
import { trimEnd } from "./trim";
import { asUserStatement } from "./user-statement";

/**
 * The home or job a statement says the user holds no more: "User is no longer a dentist" (job: dentist), "User no
 * longer lives in Lisbon" (residence: lisbon), "User left their job as a librarian", "User stopped working as a nurse",
 * "User is not a teacher anymore". Read by putting the statement as the one it ends and reading that one's slot, so a
 * value reads the same whether it is held or ended. Undefined for any other statement.
 */
export function endedValue(statement: string): Slot | undefined {
  const held = heldStatement(trimEnd(statement, ".!").trim());
  if (held === undefined) return undefined;
  const slot = slotOf(held);
  if (!slot || (slot.key !== STANDING_SLOT_KEYS.home && slot.key !== STANDING_SLOT_KEYS.job)) return undefined;
  // The value alone ends: "no longer a nurse in the ICU", "no longer just a nurse", "left my job as a dentist in
  // 2015 but came back" say less or other than that the user is no nurse or dentist now.
  return statesOnly(held, slot) ? slot : undefined;
}

/**
 * Whether a memory says the value of `slot` and nothing more ("User is a dentist", "Works as a dentist."), so that an
 * end of that value ends all it says: "User is a dentist and lives in Lyon" says more than one ending could close.
 */
export function holdsOnly(memory: string, slot: Slot): boolean {
  const held = slotOf(memory);
  return held?.key === slot.key && held.value === slot.value && statesOnly(asUserStatement(memory), slot);
}

const statesOnly = (statement: string, slot: Slot) =>
  trimEnd(statement, ".!").trim().toLowerCase().replace(HELD_VERB, "") === slot.value;

/** The statement a statement of an end ends: "User is no longer a dentist" → "User is a dentist". */
function heldStatement(statement: string): string | undefined {
  const noLonger = NO_LONGER.exec(statement);
  if (noLonger) return `User ${noLonger[1] ?? ""}${statement.slice(noLonger[0].length)}`;
  const left = LEFT_A_JOB.exec(statement);
  if (left) return `User works as ${statement.slice(left[0].length)}`;
  const stopped = STOPPED.exec(statement);
  if (stopped)
    return `User ${stopped[1]!.toLowerCase() === "being" ? "is" : "works as"} ${statement.slice(stopped[0].length)}`;
  const not = NOT.exec(statement);
  const anymore = ANYMORE.exec(statement);
  if (not && anymore && anymore.index > not[0].length) {
    return `User is ${statement.slice(not[0].length, anymore.index)}`;
  }
  return undefined;
}

const HELD_VERB = /^user (?:is|works as|lives in) (?:an? )?/;
// "User is no longer …", "User no longer lives in …": the verb, if before "no longer", is kept.
const NO_LONGER = /^user\s+(is\s+)?no\s+longer\s+/i;
const LEFT_A_JOB = /^user\s+(?:left|quit)\s+(?:their|his|her|the|a)\s+(?:job|position|role|post)\s+as\s+/i;
const STOPPED = /^user\s+(?:stopped|quit)\s+(being|working\s+as)\s+/i;
// "User is not … anymore": the two ends are read apart, each by a pattern tried at one place.
const NOT = /^user\s+is\s+not\s+/i;
const ANYMORE = /\sany\s?more$/i;
