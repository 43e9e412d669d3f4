-- 002_abandons: warnings for leaving running matches (RULES.md §3, "трусливый козёл").
-- Leaving a match adds one; finishing a match clears one.

ALTER TABLE users ADD COLUMN abandons INTEGER NOT NULL DEFAULT 0 CHECK (abandons >= 0);
