"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PASSWORD_MAX_BYTES, PASSWORD_MIN } from "@/lib/auth/credentials";
import { type AuthFormState, login, register } from "./actions";

interface AuthFormProps {
  mode: "login" | "register";
  callbackUrl?: string;
  guests: boolean;
  github: boolean;
  upgradingGuest?: boolean;
}

export function AuthForm({ mode, callbackUrl, guests, github, upgradingGuest }: AuthFormProps) {
  const [state, action, pending] = useActionState<AuthFormState, FormData>(mode === "login" ? login : register, {});
  const isLogin = mode === "login";
  return (
    <Card className="w-full max-w-sm">
      <div className="mb-6 space-y-1">
        <CardTitle>{isLogin ? "Sign in" : upgradingGuest ? "Keep your memories" : "Create an account"}</CardTitle>
        <CardDescription>
          {isLogin
            ? "Use your email and password."
            : upgradingGuest
              ? "Your guest session becomes this account; nothing is lost."
              : "An account keeps your memories across devices."}
        </CardDescription>
      </div>
      <form action={action} className="space-y-4" noValidate>
        {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
        {!isLogin ? <Field label="Name (optional)" name="name" autoComplete="name" state={state} /> : null}
        <Field label="Email" name="email" type="email" autoComplete="email" state={state} required />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete={isLogin ? "current-password" : "new-password"}
          state={state}
          required
          hint={
            isLogin ? undefined : `${PASSWORD_MIN} to ${PASSWORD_MAX_BYTES} characters (fewer with accents or emoji).`
          }
        />
        {state.error ? <Alert tone="error">{state.error}</Alert> : null}
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Please wait…" : isLogin ? "Sign in" : "Create account"}
        </Button>
      </form>
      <div className="mt-4 space-y-2 text-center text-muted-foreground text-sm">
        {github ? (
          <p>
            <a className="text-primary hover:underline" href="/api/auth/signin/github">
              Continue with GitHub
            </a>
          </p>
        ) : null}
        <p>
          {isLogin ? "No account yet? " : "Already have an account? "}
          <Link className="text-primary hover:underline" href={isLogin ? "/register" : "/login"}>
            {isLogin ? "Create one" : "Sign in"}
          </Link>
        </p>
        {guests && isLogin ? (
          <p>
            <a
              className="text-primary hover:underline"
              href={`/api/auth/guest?redirectUrl=${encodeURIComponent(callbackUrl ?? "/")}`}
            >
              Continue as a guest
            </a>
          </p>
        ) : null}
      </div>
    </Card>
  );
}

interface FieldProps extends React.ComponentProps<typeof Input> {
  label: string;
  name: "name" | "email" | "password";
  state: AuthFormState;
  hint?: string;
}

function Field({ label, name, state, hint, ...props }: FieldProps) {
  const error = state.fieldErrors?.[name];
  const described = error ? `${name}-error` : hint ? `${name}-hint` : undefined;
  const defaultValue = name === "password" ? undefined : state.values?.[name];
  return (
    <div className="space-y-1.5">
      <Label htmlFor={name}>{label}</Label>
      <Input
        id={name}
        name={name}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        {...props}
      />
      {error ? (
        <p id={`${name}-error`} className="text-destructive text-xs">
          {error}
        </p>
      ) : hint ? (
        <p id={`${name}-hint`} className="text-muted-foreground text-xs">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
