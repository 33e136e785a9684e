import { SettingsNav } from "@/components/console/settings-nav";

export default function SettingsLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex flex-col">
      <div className="mx-auto w-full max-w-4xl px-4 pt-4 sm:px-6 sm:pt-6">
        <SettingsNav />
      </div>
      {children}
    </div>
  );
}
