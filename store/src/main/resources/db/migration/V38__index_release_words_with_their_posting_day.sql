-- The search index learns when each release was posted (issue 43: search at 20,000,000 releases).
-- A search that needs the newest matches of a word of middling frequency read, before, either
-- every match (a random heap page each) or the newest releases one after another until the page
-- was full; at 20,000,000 releases both read hundreds of thousands of rows. Now the GIN index also
-- holds, for each release, a word for the UTC day and one for the UTC month it was posted
-- ('#d20261207', '#m202612'; '#tnone' when it has no posting time), words no name can hold
-- (names' words have no '#'). A search then asks the index for its words and one day (or month)
-- at a time, newest first, and stops when its page is full: the index gives the matches of that
-- day alone, and only those rows are read (ReleaseSearch's bucket plan).
--
-- The time words are not stored in the table: the index is on an expression, so this migration
-- builds one index and rewrites no row. The old index on search_words alone is dropped; searches
-- that use an index use the expression, and the ones that read the newest rows in order test
-- search_words on each row as before.
-- Cost on an existing catalog: one GIN build over releases (about a minute per 2,000,000 releases
-- on two cores), under maintenance_work_mem raised for this transaction only.
set local maintenance_work_mem = '256MB';

create or replace function release_time_words(posted timestamptz) returns text[]
    language sql immutable parallel safe as $$
    select case when posted is null then array['#tnone']
                else array['#d' || (extract(year from posted at time zone 'UTC') * 10000
                                    + extract(month from posted at time zone 'UTC') * 100
                                    + extract(day from posted at time zone 'UTC'))::bigint,
                           '#m' || (extract(year from posted at time zone 'UTC') * 100
                                    + extract(month from posted at time zone 'UTC'))::bigint] end
$$;

-- An index build runs its functions with search_path set to pg_catalog alone (PostgreSQL 17), so
-- this one keeps the path it was created under to find release_time_words.
create or replace function release_search_terms(search_words tsvector, posted timestamptz) returns tsvector
    language sql immutable parallel safe set search_path from current as $$
    select coalesce(search_words, ''::tsvector) || array_to_tsvector(release_time_words(posted))
$$;

create index releases_search_terms on releases using gin (release_search_terms(search_words, posted));
drop index releases_search_words;
