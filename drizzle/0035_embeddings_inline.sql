-- A vector of the bundled encoder (512 dimensions, 2,056 bytes) is just over the size at which PostgreSQL moves a
-- value out of its row, so every vector lived in the TOAST table and every distance of a vector search fetched it
-- from there (docs/performance.md, "What keeps search fast"). MAIN keeps a vector in its row while the row fits a page;
-- a larger model's vector still goes out of line rather than fail. Rows written before are rewritten: an update that
-- keeps a value keeps where it is stored.
DO $$
BEGIN
  IF to_regclass('memory_embeddings') IS NOT NULL THEN
    ALTER TABLE memory_embeddings ALTER COLUMN embedding SET STORAGE MAIN;
    UPDATE memory_embeddings SET embedding = embedding::text::vector;
  END IF;
END $$;
