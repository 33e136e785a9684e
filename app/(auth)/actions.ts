"use server";

import { headers } from "next/headers";
import { AuthError } from "next-auth";
import { rateLimitMessage, takeAuthAttempt } from "@/lib/api/auth-rate-limit";
import { clientAddress } from "@/lib/api/client-address";
import { auth, signIn, signOut } from "@/lib/auth/authjs";
import { registerSchema, signInSchema } from "@/lib/auth/credentials";
import { safeRedirectPath } from "@/lib/auth/redirect";
import { EmailTakenError, registerUser } from "@/lib/auth/users";
import { getDatabase } from "@/lib/db";

export interface AuthFormState {
  error?: string;
  fieldErrors?: Partial<Record<"name" | "email" | "password", string>>;
  values?: { name?: string; email?: string };
}

const WRONG_CREDENTIALS = "Wrong email or password.";

/** The message to show when this attempt is over its rate limit (counted before anything else is checked). */
async function overRateLimit(kind: "sign-in" | "register", email: string): Promise<string | undefined> {
  const address = clientAddress(await headers());
  const decision = await takeAuthAttempt(kind === "sign-in" ? { kind, address, email } : { kind, address });
  return decision.allowed ? undefined : rateLimitMessage(kind, decision.retryAfterSeconds);
}

export async function login(_: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = String(form.get("email") ?? "");
  const limited = await overRateLimit("sign-in", email);
  if (limited) return { error: limited, values: { email } };
  const parsed = signInSchema.safeParse({ email, password: form.get("password") });
  if (!parsed.success) return { error: WRONG_CREDENTIALS, values: { email } };
  try {
    await signIn("credentials", {
      ...parsed.data,
      redirectTo: safeRedirectPath(String(form.get("callbackUrl") ?? "")),
    });
  } catch (error) {
    // signIn signals success by throwing a redirect, which must propagate.
    if (error instanceof AuthError) return { error: WRONG_CREDENTIALS, values: { email } };
    throw error;
  }
  return {};
}

export async function register(_: AuthFormState, form: FormData): Promise<AuthFormState> {
  const values = { name: String(form.get("name") ?? ""), email: String(form.get("email") ?? "") };
  const limited = await overRateLimit("register", values.email);
  if (limited) return { error: limited, values };
  const parsed = registerSchema.safeParse({ ...values, password: form.get("password") });
  if (!parsed.success) {
    const fieldErrors: AuthFormState["fieldErrors"] = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof NonNullable<AuthFormState["fieldErrors"]>;
      fieldErrors[field] ??= issue.message;
    }
    return { fieldErrors, values };
  }
  const session = await auth();
  const guestId = session?.user?.isGuest ? session.user.id : undefined;
  try {
    const { db } = (await getDatabase()).unbound;
    await registerUser(db, parsed.data, guestId);
  } catch (error) {
    if (error instanceof EmailTakenError) return { fieldErrors: { email: error.message }, values };
    throw error;
  }
  await signIn("credentials", { email: parsed.data.email, password: parsed.data.password, redirectTo: "/" });
  return {};
}

export async function logout() {
  await signOut({ redirectTo: "/login" });
}
