"use server";

import { AuthError } from "next-auth";
import { registerSchema, signInSchema } from "@/lib/auth/credentials";
import { safeRedirectPath } from "@/lib/auth/redirect";
import { EmailTakenError, registerUser } from "@/lib/auth/users";
import { getDatabase } from "@/lib/db";
import { auth, signIn, signOut } from "./auth";

export interface AuthFormState {
  error?: string;
  fieldErrors?: Partial<Record<"name" | "email" | "password", string>>;
  values?: { name?: string; email?: string };
}

const WRONG_CREDENTIALS = "Wrong email or password.";

export async function login(_: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = String(form.get("email") ?? "");
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
    const { db } = await getDatabase();
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
