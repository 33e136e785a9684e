import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { DeleteAccount } from "@/components/console/delete-account";
import { ReviewModeForm } from "@/components/console/review-mode-form";
import { SignOutEverywhere } from "@/components/console/sign-out-everywhere";
import { currentPrincipal } from "@/lib/auth/session";
import { getSettings } from "@/lib/memory/review";
import { memoryContextFor } from "@/lib/server/memory-context";

export const metadata: Metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const principal = await currentPrincipal();
  if (!principal) redirect("/login?callbackUrl=/settings");
  const settings = await getSettings(await memoryContextFor(principal, "console"));
  return (
    <div className="mx-auto w-full max-w-2xl space-y-6 p-4 sm:p-6">
      <div className="space-y-1">
        <h1 className="font-semibold text-xl">Settings</h1>
        <p className="text-muted-foreground text-sm">
          Choose which changes to your memory wait for your approval on the{" "}
          <Link href="/memories/review" className="text-primary underline-offset-4 hover:underline">
            Review
          </Link>{" "}
          page. Manage{" "}
          <Link href="/memories/rules" className="text-primary underline-offset-4 hover:underline">
            rules
          </Link>{" "}
          and{" "}
          <Link href="/settings/keys" className="text-primary underline-offset-4 hover:underline">
            API keys
          </Link>
          .
        </p>
      </div>
      <ReviewModeForm mode={settings.review} />
      <SignOutEverywhere isGuest={principal.isGuest} />
      <DeleteAccount isGuest={principal.isGuest} />
    </div>
  );
}
