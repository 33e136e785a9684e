import { ConsoleNav } from "@/components/console/console-nav";
import { countPendingProposals } from "@/lib/memory/review";
import { memoryContextFor } from "@/lib/server/memory-context";
import { requirePrincipal } from "./scope";

export default async function MemoriesLayout({ children }: { children: React.ReactNode }) {
  const principal = await requirePrincipal();
  const pending = await countPendingProposals(await memoryContextFor(principal, "console"));
  return (
    <div className="flex flex-1 flex-col">
      <ConsoleNav isAdmin={principal.role === "admin"} pendingReview={pending} />
      {children}
    </div>
  );
}
