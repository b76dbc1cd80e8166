-- A release's newznab category and what its name says (title, season, episode, year, resolution),
-- computed in Java from the name with the categories of the rule set the writer holds.
-- category_version is that rule set's version (0: the shipped defaults, before any import;
-- -1: not computed yet, as for every release written before this migration), so importing a newer
-- rule set finds the releases to re-categorize, and a writer still holding an older rule set never
-- overwrites what a newer one computed.
alter table releases
    add column category         int,
    add column title            text,
    add column season           int,
    add column episode          text,
    add column year             int,
    add column resolution       text,
    add column category_version int not null default -1;

-- newest releases in a category (the newznab API without q, RSS feeds)
create index releases_category_posted on releases (category, posted desc);
