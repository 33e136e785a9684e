"use client";

import { PanelLeft } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

/** Always shown beside the chat on wide screens; behind a "Chats" toggle on phones. */
export function SidebarFrame({ children }: { children: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <aside className="md:w-60 md:shrink-0">
      <Button
        variant="outline"
        size="sm"
        className="md:hidden"
        aria-expanded={open}
        aria-controls="chat-sidebar"
        onClick={() => setOpen(!open)}
      >
        <PanelLeft className="size-4" aria-hidden /> Chats
      </Button>
      <div id="chat-sidebar" className={cn("mt-3 md:sticky md:top-20 md:mt-0 md:block", open ? "block" : "hidden")}>
        {children}
      </div>
    </aside>
  );
}
