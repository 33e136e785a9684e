"use client";

import { useId } from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { KIND_FORMS } from "@/lib/console/kind-fields";

const textareaClass =
  "flex min-h-20 w-full rounded-md border border-input bg-background px-3 py-2 text-sm shadow-xs aria-invalid:border-destructive";

/**
 * The inputs of a kind's content (lib/console/kind-fields.ts): one per field, or a JSON document for kinds without a
 * form. Values and errors are keyed by field name (`json` for a document); the caller parses with contentFromValues.
 */
export function KindContentFields(props: {
  kind: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
}) {
  const form = KIND_FORMS[props.kind];
  if (!form) {
    return (
      <FieldInput
        label="Content (JSON)"
        multiline
        mono
        value={props.values.json ?? ""}
        error={props.errors.json ?? props.errors.content}
        onChange={(value) => props.onChange({ json: value })}
      />
    );
  }
  return form.fields.map((field) => (
    <FieldInput
      key={field.name}
      label={field.label + (field.required ? "" : " (optional)")}
      multiline={field.multiline}
      value={props.values[field.name] ?? ""}
      error={props.errors[field.name]}
      onChange={(value) => props.onChange({ ...props.values, [field.name]: value })}
    />
  ));
}

export function FieldInput(props: {
  label: string;
  value: string;
  multiline: boolean;
  mono?: boolean;
  error?: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const shared = {
    id,
    value: props.value,
    "aria-invalid": props.error ? true : undefined,
    "aria-describedby": props.error ? errorId : undefined,
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => props.onChange(event.target.value),
  };
  return (
    <div className="space-y-1">
      <Label htmlFor={id}>{props.label}</Label>
      {props.multiline ? (
        <textarea
          {...shared}
          rows={props.mono ? 10 : 3}
          className={`${textareaClass} ${props.mono ? "font-mono" : ""}`}
        />
      ) : (
        <Input {...shared} />
      )}
      {props.error ? (
        <p id={errorId} className="text-destructive text-sm">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}
