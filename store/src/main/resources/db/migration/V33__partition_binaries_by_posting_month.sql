-- The binaries table partitioned by posting month (issue 43 item 2), so that retention drops a
-- month's binaries (94 % of the catalog's bytes) as one partition instead of deleting its rows.
--
-- The month is a function of each article: posted_month is the first day (UTC) of the month a
-- binary row's parts were posted in, and a row holds only parts of its month. The window keys an
-- open binary by (poster, file, total parts, month of the part's date), so every write of an
-- article, whoever makes it and however a re-index cuts the ranges, lands in the same row, and
-- the upsert merges it there. A file posted across a month boundary is two rows, one per month;
-- releases and NZBs merge a key's rows (see docs/design.md "The catalog partitioned by month").
-- A part without a date (an empty Date header) has the month -infinity.
--
-- Months without a partition (undated parts, history older than the partitions made, a date in
-- the far future) go to binaries_default, so no write ever fails for want of a partition. The
-- Schedule headway-retention makes the months ahead and back (binaries_month) and drops whole
-- months past the horizon. Rows written before this migration get the month of their earliest
-- part; Window.KEYING is bumped with it, so a re-index that keys one of their parts into another
-- month compares message-ids across the two keyings and moves it (one place per article).
alter table binaries rename to binaries_v32;
alter index binaries_pkey rename to binaries_v32_pkey;
alter index binaries_release rename to binaries_v32_release;
alter index binaries_span rename to binaries_v32_span;

create table binaries (
    group_name    text not null,
    poster        text not null,
    file_name     text not null,
    total_parts   int not null check (total_parts > 0),
    release_name  text not null,
    file_total    int not null default -1,
    subject       text not null,
    posted        timestamptz,
    first_article bigint not null,
    last_article  bigint not null,
    rule_version  int not null,
    part_numbers  int[] not null,
    segment_bytes int[] not null,
    message_ids   text not null,
    parts_present int generated always as (cardinality(part_numbers)) stored,
    bytes         bigint,
    complete      boolean generated always as (cardinality(part_numbers) >= total_parts) stored,
    posted_month  date not null,
    primary key (group_name, poster, file_name, total_parts, posted_month),
    constraint binaries_segments_check check (cardinality(part_numbers) = cardinality(segment_bytes))
) partition by range (posted_month);

-- Storage parameters belong to the partitions (a partitioned table has no storage): rows up to a
-- page stay inline (V12), for every partition binaries_month makes too.
create table binaries_default partition of binaries default with (toast_tuple_target = 8160);

create index binaries_release on binaries (group_name, poster, release_name);
create index binaries_span on binaries (group_name, first_article);

-- Makes the partition of month m (any day of it) unless it exists: created alone and attached, so
-- the parent is locked only SHARE UPDATE EXCLUSIVE (writers go on); the rows of that month that
-- waited in binaries_default move into it first (ATTACH then scans binaries_default, locked ACCESS
-- EXCLUSIVE, to check that none is left). Returns whether it made it.
create function binaries_month(m date) returns boolean
    language plpgsql
as $$
declare
    first_day date;
    next_day  date;
    part      text;
begin
    if m is null or not isfinite(m) then
        return false;
    end if;
    first_day := make_date(extract(year from m)::int, extract(month from m)::int, 1);
    next_day := (first_day + interval '1 month')::date;
    part := 'binaries_' || to_char(first_day, 'YYYY_MM');
    if to_regclass(part) is not null then
        return false;
    end if;
    execute format('create table %I (like binaries including defaults including constraints including generated)'
                   ' with (toast_tuple_target = 8160)', part);
    -- the bounds as a check, so that ATTACH need not scan the new table
    execute format('alter table %I add constraint %I check (posted_month >= %L and posted_month < %L)',
                   part, part || '_month', first_day, next_day);
    execute format('with moved as (delete from binaries_default where posted_month >= %L and posted_month < %L'
                   ' returning *)'
                   ' insert into %I (group_name, poster, file_name, total_parts, release_name, file_total, subject,'
                   ' posted, first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids,'
                   ' bytes, posted_month)'
                   ' select group_name, poster, file_name, total_parts, release_name, file_total, subject, posted,'
                   ' first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids, bytes,'
                   ' posted_month from moved',
                   first_day, next_day, part);
    execute format('alter table binaries attach partition %I for values from (%L) to (%L)', part, first_day, next_day);
    return true;
end
$$;

-- Detaches the partition of month m (any day of it), all of it posted before the retention
-- horizon, and moves out of it the rows of releases still in the catalog (a release that retention
-- kept, being within a holder's reach or having a part without a date, stays whole; its rows go to
-- binaries_default, as the month has no partition any more); binaries_drop_detached then drops the
-- table in a transaction of its own, which locks nothing writers use. Every binary of the month
-- belongs to a release posted before the month's end, so the releases posted before it find them:
-- one look-up of the month's binaries_release per such release, which after a finished purge are
-- the few it kept (a join let the planner read the whole month instead: 223 ms for 41 MB under the
-- lock). DETACH locks binaries ACCESS EXCLUSIVE until the transaction ends, so no writer runs
-- between the move and the detach's commit; the caller bounds the wait with lock_timeout, and the
-- lock is held for the detach and the move (a few ms), not for the drop (120-150 ms and 60-90 ms
-- of commit for 41 MB, measured). CONCURRENTLY does not apply: PostgreSQL refuses it on a table
-- with a default partition, and inside a transaction. Returns the rows moved, or -1 when the month
-- has no partition.
create function binaries_detach_month(m date) returns bigint
    language plpgsql
as $$
declare
    first_day date;
    ends      timestamptz;
    part      text;
    kept      bigint := 0;
    moved     bigint;
    r         record;
begin
    first_day := make_date(extract(year from m)::int, extract(month from m)::int, 1);
    ends := (first_day + interval '1 month') at time zone 'UTC';
    part := 'binaries_' || to_char(first_day, 'YYYY_MM');
    if to_regclass(part) is null
       or not exists (select 1 from pg_inherits where inhrelid = to_regclass(part) and inhparent = 'binaries'::regclass) then
        return -1;
    end if;
    execute format('alter table binaries detach partition %I', part);
    for r in select group_name, poster, name from releases where posted < ends loop
        execute format('insert into binaries (group_name, poster, file_name, total_parts, release_name, file_total,'
                       ' subject, posted, first_article, last_article, rule_version, part_numbers, segment_bytes,'
                       ' message_ids, bytes, posted_month)'
                       ' select group_name, poster, file_name, total_parts, release_name, file_total, subject, posted,'
                       ' first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids, bytes,'
                       ' posted_month'
                       ' from %I where group_name = $1 and poster = $2 and release_name = $3', part)
            using r.group_name, r.poster, r.name;
        get diagnostics moved = row_count;
        kept := kept + moved;
    end loop;
    return kept;
end
$$;

-- Drops every month table that is no partition of binaries any more (binaries_detach_month's, or
-- one a crash left detached); returns how many.
create function binaries_drop_detached() returns int
    language plpgsql
as $$
declare
    t       record;
    dropped int := 0;
begin
    for t in select c.relname from pg_class c
             where c.relkind = 'r' and not c.relispartition and c.relname ~ '^binaries_[0-9]{4}_[0-9]{2}$'
               and c.relnamespace = (select relnamespace from pg_class where oid = 'binaries'::regclass) loop
        execute format('drop table %I', t.relname);
        dropped := dropped + 1;
    end loop;
    return dropped;
end
$$;

-- The months of the rows there are, and the current month and three ahead (by the database's clock).
select binaries_month(m)
from (select distinct date_trunc('month', posted at time zone 'UTC')::date as m
      from binaries_v32 where posted is not null
      union
      select (date_trunc('month', hw_now() at time zone 'UTC') + make_interval(months => k))::date
      from generate_series(0, 3) as k) as months
order by m;

insert into binaries (group_name, poster, file_name, total_parts, release_name, file_total, subject, posted,
                      first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids, bytes,
                      posted_month)
select group_name, poster, file_name, total_parts, release_name, file_total, subject, posted,
       first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids, bytes,
       coalesce(date_trunc('month', posted at time zone 'UTC')::date, '-infinity'::date)
from binaries_v32;

drop table binaries_v32;

-- A release's latest binary posting (each binary's posted is its earliest part's, in the binary's
-- month): with posted, the months its binaries lie in, so that recomputing a release reads those
-- months' partitions alone rather than probing every month's index (measured with 200 months:
-- 14-17 ms against 190-290 ms for 100 releases; 0.5-6 ms unpartitioned).
alter table releases add column posted_last timestamptz;

update releases r
set posted_last = b.last
from (select group_name, poster, release_name, max(posted) as last
      from binaries where posted is not null group by group_name, poster, release_name) b
where r.group_name = b.group_name and r.poster = b.poster and r.name = b.release_name;

-- A partitioned table has no storage of its own: the catalog's bytes add up its partitions (a
-- table that is not partitioned has no partition tree and counts as itself).
create or replace function catalog_bytes() returns bigint
    language sql stable
as $$
    select coalesce(sum(pg_total_relation_size(coalesce(p.relid, to_regclass(n)))), 0)::bigint
    from unnest(array['rule_sets', 'binaries', 'releases', 'missing_articles', 'missing_runs',
                      'rejected_articles', 'long_names', 'rule_spans']) as n
    left join lateral pg_partition_tree(to_regclass(n)) as p on true
    where to_regclass(n) is not null
$$;
