import { ConsoleNav } from "@/components/console/console-nav";
import { requirePrincipal } from "./scope";

export default async function MemoriesLayout({ children }: { children: React.ReactNode }) {
  const principal = await requirePrincipal();
  return (
    <div className="flex flex-1 flex-col">
      <ConsoleNav isAdmin={principal.role === "admin"} />
      {children}
    </div>
  );
}
