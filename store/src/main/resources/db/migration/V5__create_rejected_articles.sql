-- Poison articles: what the catalog cannot take is recorded here instead of failing the batch,
-- and the range's cursor moves over it as over a missing article, so no poster can stop a group.
-- An article is here once (the key), whichever holder met it and however often a batch was retried.
-- raw holds the overview fields as served (tab-separated, at most 1024 bytes), as bytes because
-- they may hold NUL, which a text column refuses.
create table rejected_articles (
    group_name  text not null references groups (name),
    article     bigint not null,
    message_id  text,
    reason      text not null,
    raw         bytea not null,
    rejected_at timestamptz not null default now(),
    primary key (group_name, article)
);

-- Poster, file and release names longer than a btree row allows (2704 bytes for the whole key)
-- are stored in catalog keys in a bounded form (a prefix and a hash of the whole text, see
-- headway.index.Poison); the whole text is kept here, once per bounded form.
create table long_names (
    bounded   text primary key,
    full_text text not null
);

create or replace function catalog_bytes() returns bigint
    language sql stable
as $$
    select coalesce(sum(pg_total_relation_size(t)), 0)::bigint
    from unnest(array['rule_sets', 'binaries', 'releases', 'missing_articles', 'rejected_articles',
                      'long_names']::regclass[]) as t
$$;
