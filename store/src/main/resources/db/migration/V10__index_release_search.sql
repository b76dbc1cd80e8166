-- Indexed search over release names.
alter table releases add column name_words tsvector generated always as (
    array_to_tsvector(array_remove(regexp_split_to_array(
        regexp_replace(lower(name), '([^\x01-/:-@\[-`{-\x7f]{64})[^\x01-/:-@\[-`{-\x7f]+', '\1', 'g'),
        '[\x01-/:-@\[-`{-\x7f]+'), ''))) stored;

create index releases_name_words on releases using gin (name_words);

drop index releases_posted;
create index releases_posted on releases (posted desc nulls last);
drop index releases_category_posted;
create index releases_category_posted on releases (category, posted desc nulls last);
