-- Trigram similarity backs typo-tolerant search; it ships with PostgreSQL contrib and with PGlite.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
