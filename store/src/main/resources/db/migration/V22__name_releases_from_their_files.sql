-- The deep index (issue 41): what the files inside a release say about it. An obfuscated post's
-- release is keyed by the token its subjects carry (a random name); inspection reads its PAR2, NFO
-- and archive listings and records here the name they support and which evidence named it
-- ('nfo+par2'), whether its archives are passworded (the newznab password attribute: 0 none,
-- 1 passworded, 2 possibly: an archive inside the archive) and the IMDb id its NFO gives. The key
-- (group, poster, name) and so the guid stay the token's: a release keeps its guid and its NZB
-- when it is named. Null is "not known"; clearing the evidence sets them back.
alter table releases
    add column real_name text check (real_name is null or length(real_name) between 1 and 1024),
    add column named_by  text check (named_by is null or length(named_by) between 1 and 64),
    add column password  smallint not null default 0 check (password between 0 and 2),
    add column imdb      text check (imdb is null or imdb ~ '^tt[0-9]{7,10}$');

-- Search finds a named release by the words of its real name and still by its token: the search
-- words are the words of both names (words as V10 and V10.1 cut them), the filter words of V10.1
-- ('#5040', '#5000', '#s1', '#e5'), and the IMDb id as a word no name can hold ('#tt0058935'), so
-- that t=movie&imdbid=... is the same one GIN scan as every other search. A generated column's
-- expression cannot be altered in place before PostgreSQL 17, so the column is dropped and added
-- again: one rewrite of the releases table and a rebuild of its GIN index, once.
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
        || array['#' || category, '#' || (category / 1000 * 1000), '#s' || season, '#e' || lower(episode),
                 '#' || imdb],
        ''), null))) stored;

create index releases_search_words on releases using gin (search_words);

-- Inspection of a release, one row per release it was tried on: its state, how often it was
-- tried, the last failure's reason and when to try again. Written by the inspection work (the
-- Temporal side is wired separately); a release that gives up stays recorded here with its reason,
-- as poison articles stay in rejected_articles. Deleted with its release.
create table release_inspections (
    group_name   text        not null,
    poster       text        not null,
    name         text        not null,
    state        text        not null check (state in ('pending', 'named', 'unnamed', 'failed', 'gave_up')),
    attempts     int         not null default 0 check (attempts >= 0),
    last_error   text check (last_error is null or length(last_error) <= 1000),
    next_attempt timestamptz,
    updated_at   timestamptz not null default now(),
    primary key (group_name, poster, name),
    foreign key (group_name, poster, name) references releases (group_name, poster, name) on delete cascade
);

-- the releases due for another try, soonest first
create index release_inspections_due on release_inspections (next_attempt) where state in ('pending', 'failed');
