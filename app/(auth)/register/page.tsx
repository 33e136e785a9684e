import type { Metadata } from "next";
import { githubEnabled, guestsEnabled } from "@/lib/auth/authjs";
import { currentPrincipal } from "@/lib/auth/session";
import { AuthForm } from "../auth-form";

export const metadata: Metadata = { title: "Create an account" };

export default async function RegisterPage() {
  const principal = await currentPrincipal();
  return (
    <main className="grid min-h-dvh place-items-center p-4">
      <AuthForm
        mode="register"
        guests={guestsEnabled()}
        github={githubEnabled()}
        upgradingGuest={principal?.isGuest ?? false}
      />
    </main>
  );
}
