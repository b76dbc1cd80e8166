-- Indexed search over releases (headway.store.ReleaseSearch).
-- search_words holds the words of the name, lower-cased: runs of ASCII letters and digits and of
-- any non-ASCII characters (every other ASCII character separates words), each cut to its first
-- 64 characters so that no GIN entry can outgrow a page, whatever a poster names a release. Beside
-- them, words a name cannot hold (they start with '#', a separator) for the filters clients send
-- with the words: the category and its parent ('#5040', '#5000'), season and episode ('#s1',
-- '#e5'), so that one GIN scan answers 'some show' in TV season 1 episode 5 without building and
-- intersecting bitmaps of every TV release. It is stored, so that reading releases newest first
-- checks it without recomputing it.
alter table releases add column search_words tsvector generated always as (
    array_to_tsvector(array_remove(array_remove(
        regexp_split_to_array(
            regexp_replace(lower(name), '([^\x01-/:-@\[-`{-\x7f]{64})[^\x01-/:-@\[-`{-\x7f]+', '\1', 'g'),
            '[\x01-/:-@\[-`{-\x7f]+')
        || array['#' || category, '#' || (category / 1000 * 1000), '#s' || season, '#e' || lower(episode)],
        ''), null))) stored;

create index releases_search_words on releases using gin (search_words);

-- newest first, in the order searches return (posted desc nulls last); the old indexes put nulls first
drop index releases_posted;
create index releases_posted on releases (posted desc nulls last);
drop index releases_category_posted;
create index releases_category_posted on releases (category, posted desc nulls last);
