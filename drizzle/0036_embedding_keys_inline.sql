-- 0035 kept a vector in its row, but a row with a 512-dimension vector is still over the size (about 2 kB) at which
-- PostgreSQL moves values out of a row, so it moved the next biggest instead: the content hash (64 characters), and a
-- model name longer than about 20. A vector search joins every candidate's vector to its memory on that hash, so it
-- fetched one hash from the TOAST table per memory: at 1,000 memories the join read 6,408 buffers instead of 408 and
-- took about three times as long (docs/performance.md, "What keeps search fast"). Rows written before are rewritten:
-- an update that keeps a value keeps where it is stored. Each rewritten row leaves a dead copy for VACUUM, as 0035's
-- rewrite did.
DO $$
BEGIN
  IF to_regclass('memory_embeddings') IS NOT NULL THEN
    ALTER TABLE memory_embeddings ALTER COLUMN content_hash SET STORAGE MAIN, ALTER COLUMN model SET STORAGE MAIN;
    UPDATE memory_embeddings SET content_hash = content_hash || '', model = model || '';
  END IF;
END $$;
