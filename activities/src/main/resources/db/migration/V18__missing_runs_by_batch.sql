-- A batch's missing runs become one row, keyed by the articles the batch covered, instead of a row
-- per run: the indexer records a run per gap on the server (about one header in 90 in the
-- throughput benchmark, 43,900 runs a round), and a row per run with its own primary key entry
-- and ON CONFLICT check cost PostgreSQL 7 us a run (0.43 s of 4 million headers, embedded
-- PostgreSQL 17). One row a batch costs one statement and one key.
--
-- Recording is idempotent by span: writing the runs of articles from..to first deletes every row
-- whose span lies within from..to, so a batch written again (a retried commit, a redo after a
-- takeover) replaces its row, and a span written with a larger batch replaces the smaller spans
-- within it, such as the one-run rows of the catalog before this migration.
create table missing_runs (
    group_name     text not null,
    from_article   bigint not null,
    to_article     bigint not null,
    first_articles bigint[] not null,
    last_articles  bigint[] not null,
    check (from_article <= to_article),
    check (cardinality(first_articles) = cardinality(last_articles)),
    primary key (group_name, from_article, to_article)
);

insert into missing_runs (group_name, from_article, to_article, first_articles, last_articles)
select group_name, first_article, last_article, array[first_article], array[last_article]
from missing_articles;

drop table missing_articles;

-- The runs one per row, as the table was, for the readers (and anyone reading the catalog by hand).
create view missing_articles as
select m.group_name, r.first_article, r.last_article
from missing_runs m, unnest(m.first_articles, m.last_articles) as r(first_article, last_article);

create or replace function catalog_bytes() returns bigint
    language sql stable
as $$
    select coalesce(sum(pg_total_relation_size(to_regclass(n))), 0)::bigint
    from unnest(array['rule_sets', 'binaries', 'releases', 'missing_runs', 'rejected_articles',
                      'long_names', 'rule_spans']) as n
    where to_regclass(n) is not null
$$;
