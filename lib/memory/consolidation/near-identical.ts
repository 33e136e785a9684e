import { type SQL, sql } from "drizzle-orm";

// The near-identical test of the candidate finder (lib/memory/consolidation/candidates.ts, docs/memory-model.md,
// "Consolidation"): trigram similarity, after bounds that spare most pairs computing it.

/** Trigram similarity from which two memories of one namespace and kind count as saying the same. */
export const DUPLICATE_SIMILARITY = 0.7;

/**
 * Bits of a memory's trigram signature, a power of two (a trigram's bit is its hash masked to the low bits): at 64, a
 * text of ten words already sets most of them.
 */
const SIGNATURE_BITS = 256;
const ONE_BIT = `lpad('1', ${SIGNATURE_BITS}, '0')::bit(${SIGNATURE_BITS})`;
const NO_BITS = `repeat('0', ${SIGNATURE_BITS})::bit(${SIGNATURE_BITS})`;

/**
 * A lateral subquery giving the text of `alias` its `trigrams` and `signature` (a bit for each trigram, at its hash
 * modulo SIGNATURE_BITS) where `compared` holds, and nulls elsewhere: building them costs every memory a pass over its
 * trigrams, which only memories that meet another in a block repay. `show_trgm` lists the set `similarity` compares,
 * each trigram once and always written alike (pg_trgm builds both from one function), so its count is the one
 * `similarity` divides by.
 */
export function trigramSignature(alias: string, compared: string): SQL {
  return sql.raw(`select case when ${compared} then count(*)::int end as trigrams,
          case when ${compared} then coalesce(bit_or(${ONE_BIT} << (hashtext(t) & ${SIGNATURE_BITS - 1})), ${NO_BITS})
            end as signature
        from unnest(show_trgm(case when ${compared} then ${alias}.text end)) as t`);
}

/**
 * Trigram similarity of `a` and `b` (each with its trigramSignature) ≥ DUPLICATE_SIMILARITY, tested first against
 * bounds that take a few operations on integers and bits. A bit set in one signature and not the other stands for at
 * least one trigram of that text the other lacks, so the trigrams both share are at most either count less those, and
 * the similarity (shared ÷ union) at most what that many shared would give. `similarity` splits both texts into
 * trigrams again at every pair, and a block of a few hundred memories ending alike took seconds (docs/performance.md,
 * "Memory hygiene"). The bounds only leave out pairs `similarity` would, so the pairs are the same; a memory without a
 * signature is compared by `similarity` alone.
 */
export function nearIdentical(a: string, b: string): SQL {
  const [na, nb] = [`${a}.trigrams`, `${b}.trigrams`];
  // In whole hundredths, rounded down so as never to be stricter than the threshold.
  const t = Math.floor(DUPLICATE_SIMILARITY * 100);
  const within = (shared: string) => `${shared} * ${100 + t} >= ${t} * (${na} + ${nb})`;
  const shared = `least(${na} - ${onlyIn(a, b)}, ${nb} - ${onlyIn(b, a)})`;
  const bounded = `${na} is not null and ${nb} is not null`;
  // A CASE keeps this order (the counts alone, then the signatures, then `similarity`): the planner would order the
  // conditions of a filter by its own estimate of their costs.
  return sql`case when ${sql.raw(bounded)} and not (${sql.raw(within(`least(${na}, ${nb})`))} and ${sql.raw(within(shared))})
        then false else similarity(${sql.raw(a)}.text, ${sql.raw(b)}.text) >= ${DUPLICATE_SIMILARITY} end`;
}

/** Bits set in `a`'s signature and not in `b`'s: each is at least one trigram of `a` that `b` lacks. */
const onlyIn = (a: string, b: string) => `bit_count(${a}.signature & ~${b}.signature)::int`;
