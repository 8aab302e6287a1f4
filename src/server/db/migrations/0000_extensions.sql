-- Trigram indexes make name searches fast at any size (PGlite loads the extension from its contrib).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
