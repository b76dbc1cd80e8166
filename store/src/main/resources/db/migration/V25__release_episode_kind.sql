-- What kind of episode a release holds (issue 42), so that every search a client sends in its own
-- shape finds it: Sonarr asks for a standard episode by season and ep, a daily show by
-- season=<yyyy>&ep=<MM>/<dd>, an anime by its absolute number in q (q=Title+12), a season by its
-- number alone, and a multi-episode release must answer for each episode it holds.
--   episode_kind  the name parser's EpisodeKind in lower case, null for no episode marker (and for
--                 releases written before V25 until they are written or re-categorized again)
--   last_episode  the last episode of a multi-episode release (S02E06E07: 7), else null
--   air_date      a daily show's air date (season is its year, episode its MM-DD), else null
--   tvdb, tvmaze  the TheTVDB and TVmaze series ids an NFO of the release links, when it links
--                 exactly one of each (the deep index's evidence, as imdb since V22), else null
-- Not backfilled here: the name parser runs in Java, so older rows get these columns when their
-- release is next written, or all at once by importing a rule set (re-categorizing every release).
alter table releases
    add column episode_kind text check (episode_kind in
        ('standard', 'multi', 'pack', 'daily', 'absolute', 'part', 'special')),
    add column last_episode int check (last_episode is null or last_episode between 0 and 99999),
    add column air_date date,
    add column tvdb bigint check (tvdb is null or tvdb between 1 and 9999999999),
    add column tvmaze bigint check (tvmaze is null or tvmaze between 1 and 9999999999);

-- The filter words of a release: the words no name can hold that V10.1 and V22 put beside the
-- words of its names ('#5040', '#5000', '#s1', '#e5', '#tt0058935'), the series ids ('#tvdb81189',
-- '#tvmaze169'), and, for a multi-episode
-- release, '#e<n>' for every episode it holds (at most 100 past the first, as no release holds
-- more), and for an anime's absolute episode the number as plain words in the widths clients
-- write it: Sonarr sends q=Title+{absolute:00}, so 4 is searched as '04' and must find
-- 'Show - 004' as well as 'Show - 4' (nulls are dropped by the caller). Immutable: a generated
-- column may call it.
create function release_filter_words(category int, season int, episode text, kind text, last_episode int,
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
        || case when kind = 'absolute' and episode ~ '^[0-9]{1,5}$'
                then array[episode::int::text,
                           case when episode::int < 10 then lpad(episode::int::text, 2, '0') end,
                           case when episode::int < 100 then lpad(episode::int::text, 3, '0') end]
                else '{}'::text[] end
$$;

-- The search words again, with the filter words from the function above. A generated column's
-- expression cannot be altered in place before PostgreSQL 17, so, as V22 did, the column is
-- dropped and added again: one rewrite of releases and a rebuild of its GIN index, once.
drop index releases_search_words;
alter table releases drop column search_words;

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
