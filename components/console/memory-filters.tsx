import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { type ListQuery, listHref, SORTS } from "@/lib/console/list-query";
import { SOURCE_TYPES } from "@/lib/memory/contract";

const selectClass = "h-9 w-full rounded-md border border-input bg-background px-2 text-sm";

/** A plain GET form: the URL holds the list's whole state, so it works without JavaScript and can be shared. */
export function MemoryFilters({ query, kinds }: { query: ListQuery; kinds: string[] }) {
  return (
    <search>
      <form
        method="get"
        action="/memories"
        className="grid grid-cols-2 gap-3 rounded-xl border bg-card p-3 sm:grid-cols-4 sm:p-4"
      >
        {query.as ? <input type="hidden" name="as" value={query.as} /> : null}
        <div className="col-span-2 space-y-1 sm:col-span-4">
          <label htmlFor="filter-q" className="font-medium text-sm">
            Search
          </label>
          <Input
            id="filter-q"
            name="q"
            type="search"
            defaultValue={query.q}
            placeholder="What do you remember about…"
          />
        </div>
        <Field id="filter-kind" label="Kind">
          <select id="filter-kind" name="kind" defaultValue={query.kind ?? ""} className={selectClass}>
            <option value="">Any kind</option>
            {kinds.map((kind) => (
              <option key={kind} value={kind}>
                {kind}
              </option>
            ))}
          </select>
        </Field>
        <Field id="filter-status" label="Status">
          <select id="filter-status" name="status" defaultValue={query.status} className={selectClass}>
            <option value="active">Active</option>
            <option value="deleted">Deleted</option>
            <option value="merged">Merged</option>
            <option value="all">All</option>
          </select>
        </Field>
        <Field id="filter-source" label="Source">
          <select id="filter-source" name="source" defaultValue={query.source ?? ""} className={selectClass}>
            <option value="">Any source</option>
            {SOURCE_TYPES.map((source) => (
              <option key={source} value={source}>
                {source}
              </option>
            ))}
          </select>
        </Field>
        <Field id="filter-sort" label="Sort">
          <select
            id="filter-sort"
            name="sort"
            defaultValue={query.sort}
            className={selectClass}
            disabled={Boolean(query.q)}
          >
            {Object.entries(SORTS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field id="filter-namespace" label="Namespace">
          <Input
            id="filter-namespace"
            name="namespace"
            defaultValue={query.namespace}
            placeholder="e.g. prefs.editor"
          />
        </Field>
        <Field id="filter-from" label="From">
          <Input id="filter-from" name="from" type="date" defaultValue={query.from} />
        </Field>
        <Field id="filter-to" label="To">
          <Input id="filter-to" name="to" type="date" defaultValue={query.to} />
        </Field>
        <Field id="filter-as-of" label="Held on">
          <Input id="filter-as-of" name="asOf" type="date" defaultValue={query.asOf} />
        </Field>
        <label className="flex items-end gap-2 pb-2 text-sm">
          <input
            type="checkbox"
            name="pinned"
            value="true"
            defaultChecked={query.pinned === "true"}
            className="size-4 accent-primary"
          />
          Pinned only
        </label>
        <div className="flex items-end gap-2">
          <Button type="submit">Apply</Button>
          <Button asChild variant="ghost">
            <Link href={listHref({ status: "active", sort: "updated_desc", as: query.as }, {})}>Clear</Link>
          </Button>
        </div>
      </form>
    </search>
  );
}

function Field({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="font-medium text-sm">
        {label}
      </label>
      {children}
    </div>
  );
}
