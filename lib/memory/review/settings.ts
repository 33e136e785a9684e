import { eq } from "drizzle-orm";
import { userSettings } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";
import { parseInput } from "@/lib/errors";
import {
  type REVIEW_MODES,
  type SettingsJson,
  type UpdateSettingsInput,
  updateSettingsInputSchema,
} from "@/lib/memory/contract";

export type ReviewMode = (typeof REVIEW_MODES)[number];
export type Settings = SettingsJson;

export const DEFAULT_SETTINGS: Settings = { review: "deletes" };

/** The user's settings; defaults for a user who never changed them. */
export async function getSettings(binding: UserBinding): Promise<Settings> {
  const [row] = await asUser(binding, ({ db }) =>
    db.select().from(userSettings).where(eq(userSettings.userId, binding.principal.userId)),
  );
  return row ? { review: row.review } : { ...DEFAULT_SETTINGS };
}

export async function updateSettings(
  binding: UserBinding & { clock: () => Date },
  raw: UpdateSettingsInput,
): Promise<Settings> {
  const input = parseInput(updateSettingsInputSchema, raw);
  const current = await getSettings(binding);
  const next = { ...current, ...input };
  await asUser(binding, ({ db }) =>
    db
      .insert(userSettings)
      .values({ userId: binding.principal.userId, review: next.review, updatedAt: binding.clock() })
      .onConflictDoUpdate({ target: userSettings.userId, set: { review: next.review, updatedAt: binding.clock() } }),
  );
  return next;
}
