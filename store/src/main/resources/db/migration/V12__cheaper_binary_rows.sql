-- A binary row holds its segments' arrays; with a few dozen parts the row passes the 2 kB at which
-- PostgreSQL compresses the arrays and moves them to the TOAST table, which cost about a third of
-- the binaries upsert's CPU (0.35-0.4 us per segment of 1.0-1.4, measured on 512,000 segments in
-- binaries of 32 parts). Rows up to a page stay inline and uncompressed; larger binaries are
-- TOASTed as before.
alter table binaries set (toast_tuple_target = 8160);

-- The surrogate id served only article_placements (V11 dropped it); a binary is found by its key.
alter table binaries drop column id;

-- A binary's group is checked once per write, not once per row: every write records its rule
-- span first (rule_spans references groups, and groups are never deleted), so no binary of an
-- unknown group is written. The per-row check cost 0.14 us per segment of 1.45 (measured).
alter table binaries drop constraint binaries_group_name_fkey;
