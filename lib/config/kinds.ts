import { z } from "zod";

/**
 * The kinds of value an environment variable takes (lib/config/schema.ts lists the variables): how its text becomes
 * a value, what it accepts as the reference and the refusal word it, and a default.
 */

/** The bundled offline model, named on its own rather than as `provider:model`. */
export const OFFLINE_MODEL_ID = "offline";

/** The providers a `provider:model` id may name; lib/ai/registry.ts serves each. */
export const MODEL_PROVIDERS = ["openai", "anthropic", "google", "gateway", "openai-compatible"] as const;

/** USD per million tokens, as providers list them. */
export interface ModelPrice {
  input: number;
  output: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

interface Kind<S extends z.ZodType> {
  schema: S;
  accepts: string;
}

const mustBe = (accepts: string) => ({ error: `must be ${accepts}` });

export function wholeNumber(min: number, max?: number) {
  const accepts = max === undefined ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  const base = z.coerce.number(mustBe(accepts)).int(mustBe(accepts)).min(min, mustBe(accepts));
  return { schema: max === undefined ? base : base.max(max, mustBe(accepts)), accepts };
}

export function positiveAmount(unit: string) {
  const accepts = `a positive number of ${unit}`;
  return { schema: z.coerce.number(mustBe(accepts)).positive(mustBe(accepts)), accepts };
}

export function flag() {
  const accepts = "`true` or `false`";
  return { schema: z.enum(["true", "false"], mustBe(accepts)).transform((value) => value === "true"), accepts };
}

export function choice<const T extends readonly [string, ...string[]]>(values: T) {
  const quoted = values.map((value) => `\`${value}\``);
  const accepts = `${quoted.slice(0, -1).join(", ")}${quoted.length > 1 ? " or " : ""}${quoted.at(-1)}`;
  return { schema: z.enum(values, mustBe(accepts)), accepts };
}

export function text(accepts = "text"): Kind<z.ZodString> {
  return { schema: z.string(), accepts };
}

export const MODEL_ID_ACCEPTS = `\`${OFFLINE_MODEL_ID}\` or \`provider:model\` (provider: ${MODEL_PROVIDERS.join(", ")})`;
/** `provider:model` with a provider of `providers` and a model name without blanks. */
function namesProviderModel(id: string, providers: readonly string[]): boolean {
  const colon = id.indexOf(":");
  const model = id.slice(colon + 1);
  return colon > 0 && providers.includes(id.slice(0, colon)) && model.length > 0 && !/\s/.test(model);
}
export const isModelId = (id: string) => id === OFFLINE_MODEL_ID || namesProviderModel(id, MODEL_PROVIDERS);
/** Embedding models may also name the bundled encoder's provider, `local`. */
const isEmbeddingModelId = (id: string) => namesProviderModel(id, ["local", ...MODEL_PROVIDERS]);

export function modelId(): Kind<z.ZodString> {
  return { schema: z.string().refine(isModelId, mustBe(MODEL_ID_ACCEPTS)), accepts: MODEL_ID_ACCEPTS };
}

/** Comma-separated entries, each trimmed, blanks dropped; every entry must pass `valid`. */
export function list(accepts: string, valid: (entry: string) => boolean, normalise = (entry: string) => entry) {
  const schema = z.string().transform((raw, context) => {
    const entries = raw
      .split(",")
      .map((entry) => normalise(entry.trim()))
      .filter(Boolean);
    if (!entries.every(valid)) {
      context.addIssue({ code: "custom", message: `must be ${accepts}` });
      return z.NEVER;
    }
    return entries;
  });
  return { schema, accepts };
}

export function embeddingModel() {
  const accepts = "`local` (the bundled encoder), `none` (no vectors: lexical search only) or `provider:model`";
  const schema = z
    .string()
    .transform((raw) => (["local", "none"].includes(raw.toLowerCase()) ? raw.toLowerCase() : raw))
    .refine((id) => id === "local" || id === "none" || isEmbeddingModelId(id), mustBe(accepts));
  return { schema, accepts };
}

export function trustedProxies() {
  const accepts = "`true` (= 1), `false` (= 0) or a whole number of proxies from 0";
  const schema = z.string().transform((raw, context) => {
    const value = raw.toLowerCase();
    if (value === "true") return 1;
    if (value === "false") return 0;
    const hops = Number(value);
    if (/^\d+$/.test(value) && Number.isSafeInteger(hops)) return hops;
    context.addIssue({ code: "custom", message: `must be ${accepts}` });
    return z.NEVER;
  });
  return { schema, accepts };
}

const PRICE_MODEL_ID = /^(offline|[a-z][\w-]*:\S+)$/;
const price = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
});
const priceOverrides = z.record(z.string(), price).superRefine((table, context) => {
  for (const id of Object.keys(table)) {
    if (!PRICE_MODEL_ID.test(id)) {
      context.addIssue({ code: "custom", path: [id], message: "not offline or provider:model" });
    }
  }
});

export function modelPrices() {
  const accepts = 'JSON `{"provider:model":{"input":0.15,"output":0.6}}` (USD per 1M tokens)';
  const schema = z.string().transform((raw, context): PriceTable => {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      context.addIssue({ code: "custom", message: `is not valid JSON: must be ${accepts}` });
      return z.NEVER;
    }
    const result = priceOverrides.safeParse(json);
    if (!result.success) {
      const issues = result.error.issues
        .map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`)
        .join("; ");
      context.addIssue({ code: "custom", message: `is invalid (${issues})` });
      return z.NEVER;
    }
    return result.data;
  });
  return { schema, accepts };
}

export function url(accepts: string, protocol: RegExp): Kind<z.ZodString> {
  return {
    schema: z.string().refine((value) => URL.canParse(value) && protocol.test(value), mustBe(accepts)),
    accepts,
  };
}

/** `kind` with a default: `value` when unset, worded `shown` in the reference. */
export function defaulted<S extends z.ZodType>(kind: Kind<S>, value: z.output<S>, shown = `\`${String(value)}\``) {
  return { ...kind, schema: kind.schema.default(value as never) as z.ZodDefault<S>, default: shown };
}

/** `kind` unset stays `undefined`; the reference words that `shown`. */
export function optional<S extends z.ZodType>(kind: Kind<S>, shown = "unset") {
  return { ...kind, schema: kind.schema.optional(), default: shown };
}
