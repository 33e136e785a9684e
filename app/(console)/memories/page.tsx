import { Brain } from "lucide-react";
import type { Metadata } from "next";
import { EmptyState } from "@/components/shell/empty-state";

export const metadata: Metadata = { title: "Memories" };

export default function MemoriesPage() {
  return (
    <EmptyState icon={Brain} title="Nothing remembered yet">
      Memories saved in chat or through the API will appear here, each with where it came from and every change made to
      it.
    </EmptyState>
  );
}
