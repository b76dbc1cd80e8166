-- Which transaction added each release (issue 42), so that a client walking the pages of one search
-- reads the catalog as its first page saw it: the first page's search records its snapshot
-- (pg_current_snapshot()), and the later pages of the same walk answer only releases whose adding
-- transaction that snapshot saw (pg_visible_in_snapshot). A release added during the walk then
-- moves no other release a place on, and shows on the next walk's first page.
--   added  the id of the transaction that inserted the row (pg_current_xact_id()); an update of
--          the release (more files, a name from its files) keeps it. Null for releases written
--          before V31: every walk sees them.
-- Adding a nullable column without a default is a catalog change only (no rewrite of releases);
-- the default is set apart for the same reason, so only rows inserted from now on carry it.
alter table releases add column added xid8;
alter table releases alter column added set default pg_current_xact_id();

-- A pack of several seasons (S01-S03, Season 1-3, Seasons.01-04) answers a search for each season
-- it holds: the name parser now gives its last season, stored in last_episode (for kind 'pack'
-- only; a multi-episode release keeps its last episode there), and the filter words add '#s<n>'
-- for every season after the first (at most 50). A pack of no season ("Complete Series") gets
-- '#sall', which every search by a season alone also accepts. The same function as V25's otherwise; the search
-- words are dropped and added again to take it (one rewrite of releases and its GIN index, as V22
-- and V25). Not backfilled: a pack written before gets its other seasons when it is next written,
-- or by importing a rule set.
drop index releases_search_words;
alter table releases drop column search_words;

create or replace function release_filter_words(category int, season int, episode text, kind text, last_episode int,
                                                 imdb text, tvdb bigint, tvmaze bigint)
    returns text[]
    language sql immutable parallel safe as $$
    select array['#' || category, '#' || (category / 1000 * 1000), '#s' || season, '#e' || lower(episode),
                 '#' || imdb, '#tvdb' || tvdb, '#tvmaze' || tvmaze]
        -- nested cases, because 'and' does not order its operands and '03-08'::int would fail
        || case when kind = 'multi' and episode ~ '^[0-9]{1,5}$'
                then case when last_episode > episode::int
                          then array(select '#e' || n
                                     from generate_series(episode::int + 1,
                                                          least(last_episode, episode::int + 100)) n)
                          else '{}'::text[] end
                else '{}'::text[] end
        || case when kind = 'pack' and last_episode > season
                then array(select '#s' || n from generate_series(season + 1, least(last_episode, season + 50)) n)
                else '{}'::text[] end
        || case when kind = 'pack' and season is null then array['#sall'] else '{}'::text[] end
        || case when kind = 'absolute' and episode ~ '^[0-9]{1,5}$'
                then array[episode::int::text,
                           case when episode::int < 10 then lpad(episode::int::text, 2, '0') end,
                           case when episode::int < 100 then lpad(episode::int::text, 3, '0') end]
                else '{}'::text[] end
$$;

alter table releases add column search_words tsvector generated always as (
    array_to_tsvector(array_remove(array_remove(
        regexp_split_to_array(
            regexp_replace(lower(name), '([^\x01-/:-@\[-`{-\x7f]{64})[^\x01-/:-@\[-`{-\x7f]+', '\1', 'g'),
            '[\x01-/:-@\[-`{-\x7f]+')
        || coalesce(regexp_split_to_array(
            regexp_replace(lower(real_name), '([^\x01-/:-@\[-`{-\x7f]{64})[^\x01-/:-@\[-`{-\x7f]+', '\1', 'g'),
            '[\x01-/:-@\[-`{-\x7f]+'), '{}')
        || release_filter_words(category, season, episode, episode_kind, last_episode, imdb, tvdb, tvmaze),
        ''), null))) stored;

create index releases_search_words on releases using gin (search_words);
