-- Catalog of rule sets, binaries, releases and missing article runs.
-- A binary's segments live in its own row as three parallel arrays ordered by part number
-- (part_numbers, segment_bytes, message_ids), not one row per header: a row per segment costs
-- ~24 bytes of tuple header plus a repeated key, and a 50-part binary would be 50 index entries.
-- Arrays past ~2 kB are TOASTed and compressed. The derived columns are generated from the
-- arrays, so they cannot disagree with the segments after a merge.

create function headway_int_array_sum(int[]) returns bigint
    language sql immutable strict parallel safe
    as $$ select coalesce(sum(x), 0)::bigint from unnest($1) as x $$;

create table rule_sets (
    version    int primary key check (version > 0),
    name       text not null,
    body       jsonb not null,
    created_at timestamptz not null default now()
);

create table binaries (
    group_name         text not null references groups (name),
    poster             text not null,
    file_name          text not null,
    total_parts        int not null check (total_parts > 0),
    release_name       text not null,
    file_total         int not null default -1,
    subject            text not null,
    posted             timestamptz,
    first_article      bigint not null,
    last_article       bigint not null,
    rule_version       int not null,
    part_numbers       int[] not null,
    segment_bytes      int[] not null,
    message_ids        text[] not null,
    parts_present      int generated always as (cardinality(part_numbers)) stored,
    bytes              bigint generated always as (headway_int_array_sum(segment_bytes)) stored,
    complete           boolean generated always as (cardinality(part_numbers) >= total_parts) stored,
    completion_percent numeric(5, 2) generated always as
        (least(100, round(100.0 * cardinality(part_numbers) / total_parts, 2))) stored,
    primary key (group_name, poster, file_name, total_parts),
    check (cardinality(part_numbers) = cardinality(segment_bytes)
       and cardinality(part_numbers) = cardinality(message_ids))
);

create index binaries_release on binaries (group_name, poster, release_name);

create table releases (
    group_name         text not null references groups (name),
    poster             text not null,
    name               text not null,
    files_expected     int,
    files_present      int not null,
    files_complete     int not null,
    bytes              bigint not null,
    posted             timestamptz,
    completion_percent numeric(5, 2) not null,
    complete           boolean not null,
    rule_version       int not null,
    primary key (group_name, poster, name)
);

create index releases_posted on releases (posted desc);

create table missing_articles (
    group_name    text not null references groups (name),
    first_article bigint not null,
    last_article  bigint not null,
    check (first_article <= last_article),
    primary key (group_name, first_article, last_article)
);
