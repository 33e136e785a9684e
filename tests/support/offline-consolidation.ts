import { consolidate } from "@/lib/ai/offline/consolidation";

type Relation = "duplicate" | "slot" | "close";

/** The offline model's ops for two memories the finder paired (as close unless said), the second the newer. */
export function opsForPair(a: string, b: string, relation: Relation = "close"): string[] {
  return answerForPair(a, b, relation).map((op) => op.op);
}

/** The offline model's whole answer for two memories the finder paired, ids `m1` and `m2` (the newer). */
export function answerForPair(a: string, b: string, relation: Relation = "close") {
  return consolidate({
    today: "2026-12-01",
    memories: [a, b].map((text, index) => ({
      id: `m${index + 1}`,
      version: 1,
      namespace: [],
      kind: "memory",
      text,
      createdAt: `2026-0${index + 1}-01T00:00:00.000Z`,
      validFrom: null,
      validTo: null,
      quote: null,
      lastChangedBy: "extractor",
    })),
    related: [{ a: "m1", b: "m2", relation }],
    dated: [],
  }).ops;
}
