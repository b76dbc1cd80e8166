-- Two measures that several statements read, defined once here so that they cannot drift apart.

-- The lag of a group: the articles left in its unfinished ranges, from each range's cursor to its
-- end (a range whose cursor is past its end adds nothing). One row per group, 0 when nothing is
-- left. `headway status` shows it, the group workflow's HeadwayLag search attribute carries it
-- (through a group's outlook and each range result), and the watchman waits for it to shrink.
create view group_lag as
select g.name as group_name,
       coalesce(sum(r.end_article - r.next_article + 1) filter (where r.status <> 'done'), 0)::bigint as lag
from groups g
left join ranges r on r.group_name = g.name
group by g.name;

-- The catalog's size: the on-disk bytes of the catalog tables (rule sets, binaries, releases and
-- missing-article runs) with their indexes and TOAST. The catalog cap (HEADWAY_CATALOG_CAP)
-- compares it against the cap: at or past the cap only tail ranges are leased.
create function catalog_bytes() returns bigint
    language sql stable
as $$
    select coalesce(sum(pg_total_relation_size(t)), 0)::bigint
    from unnest(array['rule_sets', 'binaries', 'releases', 'missing_articles']::regclass[]) as t
$$;
