import { A_ID, B_ID, type Fixture } from "./fixture";

/**
 * What B aims at in the isolation suite: A's ids written in ways a loose lookup might still match, and namespaces
 * that resemble A's. Each aim names an unknown thing of the same shape, which must be answered exactly alike.
 */

export interface Target {
  /** The thing of A's that B sends (so it may come back in the answer). */
  a: (f: Fixture) => string;
  /** The same request about something that does not exist; omitted when answers cannot match (a new run id). */
  unknown?: string;
}

export interface Aim {
  attack: string;
  target: Target;
}

export const UNKNOWN_UUID = "7e1e7e1e-0000-4000-8000-00000000beef";
export const UNKNOWN_THREAD = "t-nobody";

const memoryTarget =
  (which: keyof Fixture["a"]["memories"], form: (id: string) => string = (id) => id) =>
  (f: Fixture) =>
    form(f.a.memories[which]);

/** Each of A's memories, by its plain id. */
export const A_MEMORIES: Aim[] = (
  [
    ["active", "A's active memory id"],
    ["deleted", "A's deleted memory id"],
    ["purged", "A's purged memory id"],
    ["profile", "A's profile id"],
    ["item", "A's LangGraph item id"],
  ] as const
).map(([which, attack]) => ({ attack, target: { a: memoryTarget(which), unknown: UNKNOWN_UUID } }));

const upperCased = (id: string) => id.toUpperCase();

/** A's memories, plus A's active memory upper-cased (Postgres reads a uuid in any case). */
export const A_MEMORY_UUIDS: Aim[] = [
  ...A_MEMORIES,
  {
    attack: "A's active memory id upper-cased",
    target: { a: memoryTarget("active", upperCased), unknown: upperCased(UNKNOWN_UUID) },
  },
];

/** The same id written differently: a lookup that normalises or pattern-matches it must still stay in B's rows. */
const ID_FORMS: Array<[string, (id: string) => string]> = [
  ["upper-cased", upperCased],
  ["in braces", (id) => `{${id}}`],
  ["without dashes", (id) => id.replaceAll("-", "")],
  ["with a trailing %", (id) => `${id}%`],
  ["with _ for its last character", (id) => `${id.slice(0, -1)}_`],
  ["followed by /..", (id) => `${id}/..`],
  ["with an encoded slash", (id) => `${id}%2F`],
  ["with a trailing space", (id) => `${id} `],
];

/** A's memories, and A's active memory in every other form (for routes that take the id from the path). */
export const A_MEMORY_IDS_ANY_FORM: Aim[] = [
  ...A_MEMORIES,
  ...ID_FORMS.map(([form, apply]) => ({
    attack: `A's active memory id ${form}`,
    target: { a: memoryTarget("active", apply), unknown: apply(UNKNOWN_UUID) },
  })),
];

/** A's thread `t1` and look-alikes: regexes, LIKE and case folding must not reach A's chat. */
export const A_THREADS: Aim[] = (
  [
    ["A's thread id", (id) => id],
    ["A's thread id upper-cased", upperCased],
    ["A's thread id + %", (id) => `${id}%`],
    ["A's thread id with _ for its last character", (id) => `${id.slice(0, -1)}_`],
    ["A's thread id + *", (id) => `${id}*`],
    ["A's thread id with a trailing space", (id) => `${id} `],
    ["A's thread id + /..", (id) => `${id}/..`],
    ["../ + A's thread id", (id) => `../${id}`],
    ["A's thread id with an encoded slash", (id) => `${id}%2F..`],
    ["A's thread id with a Cyrillic look-alike", (id) => id.replace("t", "\u0442")],
    ["A's thread id in fullwidth letters", (id) => id.replace("t", "\uff54")],
  ] as Array<[string, (id: string) => string]>
).map(([attack, apply]) => ({ attack, target: { a: (f) => apply(f.a.threadId), unknown: apply(UNKNOWN_THREAD) } }));

/** Thread ids the chat route refuses outright (outside `[\w-]`); the others would start a chat of B's own. */
export const A_THREADS_NOT_IDS = A_THREADS.filter(({ target }) => !/^[\w-]+$/.test(target.unknown ?? ""));

const uuidAims = (entries: Array<[string, (f: Fixture) => string]>): Aim[] =>
  entries.map(([attack, pick]) => ({ attack, target: { a: pick, unknown: UNKNOWN_UUID } }));

export const A_KEYS: Aim[] = [
  ...uuidAims([
    ["A's key id", (f) => f.a.key.id],
    ["A's revoked key id", (f) => f.a.revokedKeyId],
  ]),
  { attack: "A's key id upper-cased", target: { a: (f) => upperCased(f.a.key.id), unknown: upperCased(UNKNOWN_UUID) } },
];

export const A_WEBHOOKS: Aim[] = [
  ...uuidAims([["A's webhook id", (f) => f.a.webhook.id]]),
  {
    attack: "A's webhook id upper-cased",
    target: { a: (f) => upperCased(f.a.webhook.id), unknown: upperCased(UNKNOWN_UUID) },
  },
];

export const A_RUNS: Aim[] = [
  ...uuidAims([
    ["A's failed run", (f) => f.a.runs.failed],
    ["A's succeeded run", (f) => f.a.runs.succeeded],
  ]),
  {
    attack: "A's failed run upper-cased",
    target: { a: (f) => upperCased(f.a.runs.failed), unknown: upperCased(UNKNOWN_UUID) },
  },
  { attack: "A's failed run + %", target: { a: (f) => `${f.a.runs.failed}%`, unknown: `${UNKNOWN_UUID}%` } },
];

export const A_PROPOSALS: Aim[] = [
  ...uuidAims([["A's pending proposal", (f) => f.a.proposal]]),
  {
    attack: "A's pending proposal upper-cased",
    target: { a: (f) => upperCased(f.a.proposal), unknown: upperCased(UNKNOWN_UUID) },
  },
];

export const A_RULES: Aim[] = [
  ...uuidAims([["A's rule", (f) => f.a.rule]]),
  { attack: "A's rule upper-cased", target: { a: (f) => upperCased(f.a.rule), unknown: upperCased(UNKNOWN_UUID) } },
];

export interface NamespaceAttack {
  attack: string;
  namespace: string[];
  /** Invalid ones contain `.` or an empty segment: 422 everywhere (DESIGN §3). */
  valid: boolean;
}

/** Relative namespaces B names. A stores under team/1, 1, a%, a_b, a*, a\b, café (NFC) and users/<B>. */
export const NAMESPACES: NamespaceAttack[] = [
  { attack: "A's relative namespace team/1", namespace: ["team", "1"], valid: true },
  { attack: "the parent team", namespace: ["team"], valid: true },
  { attack: "sibling team/10 (A's team/1 is its prefix)", namespace: ["team", "10"], valid: true },
  { attack: "team/1% (LIKE wildcard)", namespace: ["team", "1%"], valid: true },
  { attack: "team/_ (LIKE single character)", namespace: ["team", "_"], valid: true },
  { attack: "% alone", namespace: ["%"], valid: true },
  { attack: "* glob", namespace: ["*"], valid: true },
  { attack: "a% (one of A's namespaces)", namespace: ["a%"], valid: true },
  { attack: "a_b (one of A's namespaces)", namespace: ["a_b"], valid: true },
  { attack: "a\\b (backslash, one of A's namespaces)", namespace: ["a\\b"], valid: true },
  { attack: "a\\% (escaped wildcard)", namespace: ["a\\%"], valid: true },
  { attack: "Cyrillic е in team", namespace: ["t\u0435am", "1"], valid: true },
  { attack: "fullwidth ｔｅａｍ/１", namespace: ["\uff54\uff45\uff41\uff4d", "\uff11"], valid: true },
  { attack: "café in NFC (as A wrote it)", namespace: ["caf\u00e9"], valid: true },
  { attack: "café in NFD", namespace: ["cafe\u0301"], valid: true },
  { attack: "A's root named relatively", namespace: ["users", A_ID], valid: true },
  { attack: "A's absolute namespace", namespace: ["users", A_ID, "team", "1"], valid: true },
  { attack: "B's own root named relatively", namespace: ["users", B_ID], valid: true },
  { attack: "slash-joined team/1 in one segment", namespace: ["team/1"], valid: true },
  { attack: "leading slash", namespace: ["/team"], valid: true },
  { attack: "trailing slash", namespace: ["team/"], valid: true },
  { attack: "encoded slash team%2F1", namespace: ["team%2F1"], valid: true },
  { attack: "..", namespace: [".."], valid: false },
  { attack: ".", namespace: ["."], valid: false },
  { attack: "empty segment", namespace: [""], valid: false },
  { attack: "dot-joined team.1 in one segment", namespace: ["team.1"], valid: false },
  { attack: "../../users/A climbing out of B's root", namespace: ["..", "..", "users", A_ID], valid: false },
  { attack: "trailing empty segment", namespace: ["team", ""], valid: false },
];

export interface DottedAttack {
  attack: string;
  dotted: string;
  valid: boolean;
}

/** Dot-joined namespaces as query strings carry them (REST `namespace=`, LangGraph GET, the console's filter). */
export const DOTTED_NAMESPACES: DottedAttack[] = [
  ...NAMESPACES.filter((entry) => entry.valid && !entry.namespace.some((segment) => segment.includes("/"))).map(
    (entry) => ({ attack: entry.attack, dotted: entry.namespace.join("."), valid: true }),
  ),
  { attack: "team/1 with a slash instead of a dot", dotted: "team/1", valid: true },
  { attack: "encoded slash team%2F1", dotted: "team%2F1", valid: true },
  { attack: "..", dotted: "..", valid: false },
  { attack: ".", dotted: ".", valid: false },
  { attack: "team..1 (empty middle segment)", dotted: "team..1", valid: false },
  { attack: ".team (leading dot)", dotted: ".team", valid: false },
  { attack: "team. (trailing dot)", dotted: "team.", valid: false },
  { attack: "...users.A", dotted: `...users.${A_ID}`, valid: false },
];

/** Keys next to A's LangGraph item prefs/editor. */
export const ITEM_KEYS: Array<{ attack: string; key: (f: Fixture) => string }> = [
  { attack: "A's key editor", key: () => "editor" },
  { attack: "editor%", key: () => "editor%" },
  { attack: "edito_", key: () => "edito_" },
  { attack: "Cyrillic е in editor", key: () => "\u0435ditor" },
  { attack: "EDITOR", key: () => "EDITOR" },
  { attack: "editor with a trailing space", key: () => "editor " },
  { attack: "A's memory id as the key", key: (f) => f.a.memories.item },
];
