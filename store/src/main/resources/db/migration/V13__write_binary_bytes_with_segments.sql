-- A binary's byte count was generated from its segment sizes by an SQL function, which PostgreSQL
-- runs as a query of its own for every row written: about 0.15 us per segment of the binaries
-- upsert's 1.9 (measured with the throughput benchmark's raw write). Every statement that writes a
-- binary's segment arrays now writes their sum with them: CatalogStore's insert and merge, and
-- Placements' removal of articles placed elsewhere.
alter table binaries alter column bytes drop expression;
drop function headway_int_array_sum(int[]);

-- Never read (a release's completion is computed from its binaries' parts), yet computed in
-- numeric for every row written.
alter table binaries drop column completion_percent;
