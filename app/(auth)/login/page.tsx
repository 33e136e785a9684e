import type { Metadata } from "next";
import { githubEnabled, guestsEnabled } from "@/lib/auth/authjs";
import { safeRedirectPath } from "@/lib/auth/redirect";
import { AuthForm } from "../auth-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string | string[] }>;
}) {
  const { callbackUrl } = await searchParams;
  // The page only carries a target that is already safe, so its form and guest link never hold another site.
  const target = typeof callbackUrl === "string" ? safeRedirectPath(callbackUrl) : undefined;
  return (
    <main className="grid min-h-dvh place-items-center p-4">
      <AuthForm mode="login" callbackUrl={target} guests={guestsEnabled()} github={githubEnabled()} />
    </main>
  );
}
