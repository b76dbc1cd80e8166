-- A batch's missing runs become one row of missing_runs, keyed by the articles the batch covered,
-- instead of a row per run in missing_articles: the indexer records a run per gap on the server
-- (about one header in 90 in the throughput benchmark, 43,900 runs a round), and a row per run
-- with its own primary key entry and ON CONFLICT check cost PostgreSQL 7 us a run (0.3-0.4 s of
-- 4 million headers, embedded PostgreSQL 17). One row a batch costs one statement and one key.
--
-- Recording is idempotent by span: writing the runs of articles from..to first deletes the rows
-- whose spans lie within from..to, in missing_runs and in missing_articles, so a batch written
-- again (a retried commit, a redo after a takeover) replaces its row, and a batch larger than
-- before replaces the smaller ones within it.
--
-- missing_articles stays a table, so that workers of an older build, which still write their runs
-- there one per row, go on working beside this one during a rolling upgrade; a redo by this build
-- replaces their rows. missing_article_runs lists every run one per row from both tables.
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

create view missing_article_runs as
select group_name, first_article, last_article
from missing_articles
union all
select m.group_name, r.first_article, r.last_article
from missing_runs m, unnest(m.first_articles, m.last_articles) as r(first_article, last_article);

create or replace function catalog_bytes() returns bigint
    language sql stable
as $$
    select coalesce(sum(pg_total_relation_size(to_regclass(n))), 0)::bigint
    from unnest(array['rule_sets', 'binaries', 'releases', 'missing_articles', 'missing_runs',
                      'rejected_articles', 'long_names', 'rule_spans']) as n
    where to_regclass(n) is not null
$$;
