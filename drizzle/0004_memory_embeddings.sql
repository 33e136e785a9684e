-- Embeddings exist only where pgvector does (see 0002). The table is created dynamically so this migration also
-- applies on PostgreSQL servers without the extension; it is kept out of lib/db/schema.ts for the same reason.
-- `embedding` has no fixed dimension: each row belongs to one model, and switching model adds rows, not columns.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    EXECUTE $sql$
      CREATE TABLE IF NOT EXISTS memory_embeddings (
        user_id uuid NOT NULL,
        memory_id uuid NOT NULL,
        model text NOT NULL,
        embedding vector NOT NULL,
        content_hash text NOT NULL,
        created_at timestamp with time zone NOT NULL DEFAULT now(),
        CONSTRAINT memory_embeddings_pk PRIMARY KEY (user_id, memory_id, model),
        CONSTRAINT memory_embeddings_memory_fk FOREIGN KEY (user_id, memory_id)
          REFERENCES memories (user_id, id) ON DELETE CASCADE
      )
    $sql$;
  END IF;
END $$;
