-- One place per article, kept by the write path instead of a row per article. article_placements
-- cost PostgreSQL about 9 us of CPU per header written (a random insert into its unique btree for
-- every article, against about 3 us for everything else the write does), so the catalog now
-- records, per group, rule version and keying (how the build that wrote keys a header beyond the
-- rule set: Window.KEYING), the span of article numbers written and its widest binary
-- (rule_spans). Writes of one rule version and keying key an article alike, and an article has
-- one number in its group, so a write whose span meets no other span of its group cannot place an
-- article a second time; a write whose span meets one compares its message-ids with the binaries
-- in the overlap (found by binaries_span) and keeps the article with the newer rule set.
create table rule_spans (
    group_name    text not null references groups (name),
    rule_version  int not null,
    keying        int not null,
    first_article bigint not null,
    last_article  bigint not null,
    widest        bigint not null,
    primary key (group_name, rule_version, keying)
);

-- What was written before is of an unknown keying (0), so any write that overlaps it compares.
insert into rule_spans (group_name, rule_version, keying, first_article, last_article, widest)
select group_name, rule_version, 0, min(first_article), max(last_article), max(last_article - first_article)
from binaries
group by group_name, rule_version;

create index binaries_span on binaries (group_name, first_article);

drop table article_placements;

create or replace function catalog_bytes() returns bigint
    language sql stable
as $$
    select coalesce(sum(pg_total_relation_size(to_regclass(n))), 0)::bigint
    from unnest(array['rule_sets', 'binaries', 'releases', 'missing_articles', 'rejected_articles',
                      'long_names', 'rule_spans']) as n
    where to_regclass(n) is not null
$$;
