-- Whether a consolidation run showed the model every candidate group it found (docs/memory-model.md,
-- "Consolidation"): the next run looks for memories close by meaning only among those changed since such a run began.
ALTER TABLE "consolidation_runs" ADD COLUMN IF NOT EXISTS "complete" boolean DEFAULT false NOT NULL;
