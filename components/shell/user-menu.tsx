"use client";

import { KeyRound, LogOut, Settings, UserPlus, UserRound, Webhook } from "lucide-react";
import Link from "next/link";
import { logout } from "@/app/(auth)/actions";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

export interface UserMenuProps {
  userId: string;
  email: string | null;
  name: string | null;
  isGuest: boolean;
  role: "user" | "admin";
}

export function UserMenu({ userId, email, name, isGuest, role }: UserMenuProps) {
  const label = isGuest ? "Guest" : (name ?? email ?? "Account");
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" aria-label="User menu" data-testid="user-menu">
          <UserRound className="size-4" aria-hidden />
          <span className="max-w-40 truncate">{label}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>
          <div className="font-medium" data-testid="user-identity">
            {isGuest ? "Guest session" : (email ?? name)}
          </div>
          <div className="font-mono text-muted-foreground text-xs" data-testid="user-id">
            {userId}
          </div>
          {role === "admin" ? <div className="text-primary text-xs">Administrator</div> : null}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {isGuest ? (
          <DropdownMenuItem asChild>
            <Link href="/register">
              <UserPlus className="size-4" aria-hidden /> Create an account to keep your memories
            </Link>
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem asChild>
          <Link href="/settings">
            <Settings className="size-4" aria-hidden /> Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/settings/keys">
            <KeyRound className="size-4" aria-hidden /> API keys
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/settings/webhooks">
            <Webhook className="size-4" aria-hidden /> Webhooks
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => logout()}>
          <LogOut className="size-4" aria-hidden /> Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
