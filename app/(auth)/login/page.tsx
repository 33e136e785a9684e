import type { Metadata } from "next";
import { githubEnabled, guestsEnabled } from "@/lib/auth/authjs";
import { AuthForm } from "../auth-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  return (
    <main className="grid min-h-dvh place-items-center p-4">
      <AuthForm mode="login" callbackUrl={callbackUrl} guests={guestsEnabled()} github={githubEnabled()} />
    </main>
  );
}
