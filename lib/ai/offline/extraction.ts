import {
  type ExtractionOp,
  type PromptMemory,
  type PromptMessage,
  toWireOp,
  type WireOp,
} from "@/lib/memory/extraction";
import { endedValue, holdsOnly } from "@/lib/text/ended-values";
import { type Slot, sameSlot, slotOf } from "@/lib/text/slots";
import { type Fact, readMessage } from "./intent";
import { changeStartedOn } from "./when";

export { sameSlot } from "@/lib/text/slots";

export interface ExtractionInput {
  kinds: string[];
  allowed: string[];
  existing: PromptMemory[];
  deleted: string[];
  messages: PromptMessage[];
}

/** The user's words an op comes from: the message id and an exact substring of that message. */
export interface OpSource {
  messageId: string;
  quote: string;
}

/** An op with the words it comes from (which every op also carries itself). */
export interface PlannedOp {
  op: ExtractionOp;
  source: OpSource;
}

/** The offline memory manager's answer, in the wire shape the manager's output schema asks for. */
export function proposeOps(input: ExtractionInput): { ops: WireOp[] } {
  return { ops: planOps(input).map((planned) => toWireOp(planned.op)) };
}

/** The output schema's bounds: ops per answer, characters per quote and per reason. */
const MAX_OPS = 50;
const MAX_QUOTE = 1_000;
const QUOTED_IN_REASON = 300;

/**
 * The offline memory manager: every fact a user message states (one per clause, see readMessage) becomes an insert,
 * or an update of the existing memory that fills the same slot ("lives in Toronto" → "lives in Vancouver"); a fact
 * already remembered changes nothing but retires other memories that contradict it in a single-valued slot; "forget
 * …" deletes the best-matching memory. Questions and assistant messages state nothing. Validation downstream decides
 * what is actually written.
 */
export function planOps(input: ExtractionInput): PlannedOp[] {
  const planned: PlannedOp[] = [];
  const known = input.existing.map((memory) => ({ ...memory }));
  const retired = new Set<string>();
  /** Inserts this run proposes, by the placeholder id they have among `known`. */
  const inserted = new Map<string, PlannedOp>();
  const deleted = new Set(input.deleted.map(normalize));
  const kind = input.kinds.includes("memory") ? "memory" : undefined;
  const can = (op: string) => input.allowed.includes(op);
  const remove = (memory: PromptMemory, reason: string, source: OpSource) => {
    retired.add(memory.id);
    planned.push({ op: { op: "delete", id: memory.id, reason, ...source }, source });
  };

  for (const message of input.messages) {
    if (message.role !== "user") continue;
    const reading = readMessage(message.text);
    const said = message.createdAt ? new Date(message.createdAt) : undefined;
    for (const fact of reading.facts) {
      // A prefix of the clause is still an exact substring of the message.
      const source = { messageId: message.id, quote: fact.quote.slice(0, MAX_QUOTE) };
      const active = known.filter((memory) => !retired.has(memory.id));
      const content = fact.content;
      // "I moved to Vancouver last month": the new value holds from then, and supersedes the old one.
      const validFrom = changeStartedOn(fact.quote, said);
      const since = validFrom ? { validFrom } : {};
      const ended = endedValue(content);
      const end = ended && endOfAValue(ended, reading.facts, active, inserted);
      if (end === "said") continue;
      if (end && can("update")) {
        planned.push(closing(end, content, source, validFrom ?? said?.toISOString()));
        continue;
      }
      const rivals = rivalsOf(content, active);
      const superseded = `The user said "${clip(fact.quote)}", which replaces this.`;
      if (active.some((memory) => normalize(memory.text) === normalize(content))) {
        if (can("delete")) for (const rival of rivals) if (!inserted.has(rival.id)) remove(rival, superseded, source);
        continue;
      }
      if (deleted.has(normalize(content))) continue;
      const [same, ...others] = rivals.length ? rivals : active.filter((memory) => sameSlot(memory.text, content));
      const pending = same && inserted.get(same.id);
      if (pending) {
        // A value this run is already inserting ("I live in Lisbon. Actually, I moved to Porto."): insert the last.
        pending.op = { ...pending.op, content: { content }, ...source, ...since } as ExtractionOp;
        pending.source = source;
        same.text = content;
      } else if (same && can("update")) {
        planned.push({
          op: {
            op: "update",
            id: same.id,
            expectedVersion: same.version,
            content: { content },
            ...source,
            reason: "The user stated a new value for this.",
            ...since,
          },
          source,
        });
        same.text = content;
        if (can("delete") && rivals.length) {
          for (const other of others) if (!inserted.has(other.id)) remove(other, superseded, source);
        }
      } else if (kind && can("insert")) {
        const insert: PlannedOp = { op: { op: "insert", kind, content: { content }, ...source, ...since }, source };
        const id = `new-${planned.length}`;
        planned.push(insert);
        inserted.set(id, insert);
        known.push({ id, version: 1, kind, text: content });
      }
    }
    if (reading.forget && can("delete")) {
      // Only a memory held before this run: one it is inserting was never remembered.
      const held = known.filter((memory) => !retired.has(memory.id) && !inserted.has(memory.id));
      forget(held, reading.forget, message.id, remove);
    }
  }
  return planned.slice(0, MAX_OPS);
}

/** Other memories holding the same single-valued fact as `content` (a name, where the user lives) with another value. */
function rivalsOf(content: string, active: PromptMemory[]): PromptMemory[] {
  const slot = slotOf(content);
  if (!slot) return [];
  return active.filter(
    (memory) => slotOf(memory.text)?.key === slot.key && normalize(memory.text) !== normalize(content),
  );
}

/**
 * What a fact that a home or job ended ("I'm no longer a dentist", "I left my job as a librarian") does: the memory
 * held before that says only the ended value, to be closed; else nothing of its own when the message gives another
 * value of that slot ("said": "I left my job as a librarian and became a plumber" keeps the new value, which says more
 * than the end); else undefined, and it is a fact like any other.
 */
function endOfAValue(
  ended: Slot,
  facts: Fact[],
  active: PromptMemory[],
  inserted: ReadonlyMap<string, PlannedOp>,
): PromptMemory | "said" | undefined {
  const holder = active.find((memory) => !inserted.has(memory.id) && holdsOnly(memory.text, ended));
  if (holder) return holder;
  const another = (fact: Fact) => {
    const slot = slotOf(fact.content);
    return slot?.key === ended.key && slot.value !== ended.value;
  };
  return facts.some(another) ? "said" : undefined;
}

/**
 * The update that closes `memory` as of `since` (when the user said so) and has it say the end; `memory` is the
 * planner's copy, which then reads as it will.
 */
function closing(memory: PromptMemory, content: string, source: OpSource, since: string | undefined): PlannedOp {
  memory.text = content;
  return {
    op: {
      op: "update",
      id: memory.id,
      expectedVersion: memory.version,
      content: { content },
      ...source,
      reason: "The user said this no longer holds.",
      ...(since ? { validFrom: since } : {}),
    },
    source,
  };
}

/** "Forget …": the best-matching memory among `held` goes, citing the words that asked. */
function forget(
  held: PromptMemory[],
  request: { query: string; quote: string },
  messageId: string,
  remove: (memory: PromptMemory, reason: string, source: OpSource) => void,
) {
  const target = bestMatch(held, request.query);
  const source = { messageId, quote: request.quote.slice(0, MAX_QUOTE) };
  if (target) remove(target, `The user asked to forget this: "${clip(request.quote)}"`, source);
}

function clip(text: string) {
  return text.length > QUOTED_IN_REASON ? `${text.slice(0, QUOTED_IN_REASON - 1)}…` : text;
}

const normalize = (text: string) =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

const STOP = new Set(["the", "a", "an", "that", "i", "my", "me", "about", "user", "user's", "is", "are", "to", "of"]);

function bestMatch(memories: PromptMemory[], query: string): PromptMemory | undefined {
  const wanted = new Set(words(query).filter((word) => !STOP.has(word)));
  let best: { memory: PromptMemory; score: number } | undefined;
  for (const memory of memories) {
    const score = words(memory.text).filter((word) => wanted.has(word) || wanted.has(word.replace(/s$/, ""))).length;
    if (score > 0 && (!best || score > best.score)) best = { memory, score };
  }
  return best?.memory;
}
