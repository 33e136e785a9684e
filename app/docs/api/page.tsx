import type { Metadata } from "next";
import Link from "next/link";
import { openApiDocument } from "@/lib/api/openapi";

export const metadata: Metadata = { title: "API reference" };

interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: {
    content: { "application/json": { schema: { properties?: Record<string, unknown>; required?: string[] } } };
  };
  responses: Record<string, { description: string }>;
  security: Record<string, string[]>[];
}

const METHOD_STYLE: Record<string, string> = {
  get: "bg-emerald-500/15 text-emerald-700 dark:text-emerald-300",
  post: "bg-sky-500/15 text-sky-700 dark:text-sky-300",
  patch: "bg-amber-500/15 text-amber-700 dark:text-amber-300",
  delete: "bg-rose-500/15 text-rose-700 dark:text-rose-300",
};

function operationsByTag() {
  const document = openApiDocument();
  const groups = new Map<string, { method: string; path: string; operation: Operation }[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const tag = operation.tags[0] ?? "Other";
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, operation }]);
    }
  }
  return { document, groups };
}

function Code({ children }: { children: React.ReactNode }) {
  return <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs">{children}</code>;
}

function OperationView({ method, path, operation }: { method: string; path: string; operation: Operation }) {
  const body = operation.requestBody?.content["application/json"].schema;
  const required = new Set(body?.required ?? []);
  return (
    <section id={operation.operationId} className="space-y-2 rounded-lg border p-4">
      <h3 className="flex flex-wrap items-center gap-2 font-mono text-sm">
        <span className={`rounded px-1.5 py-0.5 font-semibold uppercase ${METHOD_STYLE[method] ?? "bg-muted"}`}>
          {method}
        </span>
        <span>{path}</span>
        <span className="font-sans text-muted-foreground">— {operation.summary}</span>
      </h3>
      <p className="whitespace-pre-line text-muted-foreground text-sm">{operation.description}</p>
      {operation.parameters?.length ? (
        <p className="text-sm">
          Parameters:{" "}
          {operation.parameters.map((parameter) => (
            <span key={parameter.name} className="mr-2">
              <Code>{parameter.name}</Code>{" "}
              <span className="text-muted-foreground text-xs">
                ({parameter.in}
                {parameter.required ? ", required" : ""})
              </span>
            </span>
          ))}
        </p>
      ) : null}
      {body?.properties ? (
        <p className="text-sm">
          Body:{" "}
          {Object.keys(body.properties).map((name) => (
            <span key={name} className="mr-2">
              <Code>{name}</Code>
              {required.has(name) ? <span className="text-muted-foreground text-xs"> (required)</span> : null}
            </span>
          ))}
        </p>
      ) : null}
      <p className="text-sm">
        Responses:{" "}
        {Object.entries(operation.responses).map(([status, response]) => (
          <span key={status} className="mr-2" title={response.description}>
            <Code>{status}</Code>
          </span>
        ))}
      </p>
      <p className="text-muted-foreground text-xs">
        Auth:{" "}
        {operation.security.length ? operation.security.map((entry) => Object.keys(entry)[0]).join(" or ") : "none"}
      </p>
    </section>
  );
}

export default function ApiDocsPage() {
  const { document, groups } = operationsByTag();
  return (
    <main className="mx-auto w-full max-w-4xl space-y-8 p-4 sm:p-8">
      <header className="space-y-2">
        <h1 className="font-semibold text-2xl">{document.info.title}</h1>
        <p className="text-muted-foreground text-sm">{document.info.description}</p>
        <p className="text-sm">
          Machine-readable:{" "}
          <Link className="text-primary underline-offset-4 hover:underline" href="/api/v1/openapi.json">
            /api/v1/openapi.json
          </Link>{" "}
          (OpenAPI 3.1). Keys:{" "}
          <Link className="text-primary underline-offset-4 hover:underline" href="/settings/keys">
            /settings/keys
          </Link>
          . Send <Code>Authorization: Bearer ml_…</Code>; errors are <Code>{"{ error: { code, message } }"}</Code>.
        </p>
      </header>
      {[...groups].map(([tag, operations]) => (
        <section key={tag} className="space-y-3">
          <h2 className="font-semibold text-lg">{tag}</h2>
          {operations.map((entry) => (
            <OperationView key={`${entry.method} ${entry.path}`} {...entry} />
          ))}
        </section>
      ))}
      <section className="space-y-2">
        <h2 className="font-semibold text-lg">LangGraph Store API</h2>
        <p className="text-muted-foreground text-sm">
          Under <Code>/api/langgraph</Code>, with the key in <Code>x-api-key</Code>, the Agent Server's store endpoints:{" "}
          <Code>PUT/GET/DELETE /store/items</Code>, <Code>POST /store/items/search</Code>,{" "}
          <Code>POST /store/namespaces</Code>. Point{" "}
          <Code>new Client({'{ apiUrl: "<origin>/api/langgraph", apiKey }'})</Code> from{" "}
          <Code>@langchain/langgraph-sdk</Code> at it. Namespaces are relative to your root; a value{" "}
          <Code>{'{ content: "…" }'}</Code> is a plain memory, any other object a <Code>document</Code> memory. A search
          skips at most 1,000 items (<Code>offset</Code> above that is a 422).
        </p>
      </section>
      <section className="space-y-2">
        <h2 className="font-semibold text-lg">MCP</h2>
        <p className="text-muted-foreground text-sm">
          Streamable HTTP at <Code>/api/mcp</Code> with <Code>Authorization: Bearer</Code>. Tools: the chat's own{" "}
          <Code>manage_memory</Code> (create, update, delete) and <Code>search_memory</Code>, with the same arguments
          and answers. The earlier names (add_memory, search_memories, get_memory, update_memory, delete_memory,
          list_memories) still work, deprecated. Read-only keys can search, get and list. Send one JSON-RPC message per
          request: a batch is refused with 400 and runs nothing.
        </p>
      </section>
    </main>
  );
}
