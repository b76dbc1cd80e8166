-- Indexed search over releases (headway.store.ReleaseSearch), second step: V10's name_words becomes
-- search_words, which adds to the words of the name words that no name can hold (they start with
-- '#', a separator) for the filters clients send with words: the category and its parent ('#5040',
-- '#5000'), season and episode ('#s1', '#e5'). One GIN scan then answers 'some show' in TV season 1
-- episode 5; with the filters in B-trees, PostgreSQL built and intersected a bitmap of every TV
-- release with the show's (see docs/benchmarks.md, Search). V10 itself stays as it was applied.
-- The words of the name are as in V10: lower-cased runs of ASCII letters and digits and of any
-- non-ASCII characters (every other ASCII character separates words), each cut to its first 64
-- characters so that no GIN entry can outgrow a page whatever a poster names a release. Stored, so
-- that reading releases newest first checks it without recomputing it.
drop index releases_name_words;
alter table releases drop column name_words;

alter table releases add column search_words tsvector generated always as (
    array_to_tsvector(array_remove(array_remove(
        regexp_split_to_array(
            regexp_replace(lower(name), '([^\x01-/:-@\[-`{-\x7f]{64})[^\x01-/:-@\[-`{-\x7f]+', '\1', 'g'),
            '[\x01-/:-@\[-`{-\x7f]+')
        || array['#' || category, '#' || (category / 1000 * 1000), '#s' || season, '#e' || lower(episode)],
        ''), null))) stored;

create index releases_search_words on releases using gin (search_words);
