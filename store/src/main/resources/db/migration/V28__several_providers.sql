-- Several providers (issue 44).

-- What each node reports per provider with its heartbeat: its connections open to the provider and
-- how many it may open, and the connections the provider's account allows the whole fleet (null:
-- not known). The label names the provider for people ("1 backup nntps://host:563"), never its
-- credentials. Deleted with the node's row.
create table node_providers (
    node_id         text not null references nodes (id) on delete cascade,
    provider        int  not null check (provider >= 0),
    label           text not null check (length(label) <= 300),
    connections     int  not null check (connections >= 0),
    max_connections int  not null check (max_connections >= 0),
    fleet_limit     int check (fleet_limit is null or fleet_limit >= 0),
    primary key (node_id, provider)
);

-- A group's header provider switches: from catalog article from_article on, the group's headers
-- come from provider `provider`, whose article n is the catalog's article n + shift. Written when a
-- group fails over (or back), keyed by the catalog cursor the switch happened at, so that a worker
-- that takes the group over, and the planner, number that provider's articles the same way.
-- `mapped_by` says how the shift was found ('message-id' or 'date'), `anchor` the message-id or
-- date it was found from.
create table group_provider_switches (
    group_name   text   not null references groups (name) on delete cascade,
    from_article bigint not null,
    provider     int    not null check (provider >= 0),
    shift        bigint not null,
    mapped_by    text   not null check (mapped_by in ('start', 'message-id', 'date')),
    anchor       text check (anchor is null or length(anchor) <= 1000),
    switched_at  timestamptz not null default now(),
    primary key (group_name, from_article)
);

-- What an availability check (STAT <message-id>) found of a release on one provider: how many of
-- its segments were asked, how many of those were missing, the release's segments in all and what
-- its PAR2 recovery can repair (in segments, null: not known), and the class that follows:
-- complete, repairable (missing no more than its recovery can repair) or broken. Deleted with its
-- release; `checked_at` lets a check before the retention horizon find the releases due again.
create table release_availability (
    group_name   text        not null,
    poster       text        not null,
    name         text        not null,
    provider     int         not null check (provider >= 0),
    segments     int         not null check (segments >= 0),
    asked        int         not null check (asked >= 0),
    missing      int         not null check (missing >= 0 and missing <= asked),
    recoverable  int check (recoverable is null or recoverable >= 0),
    class        text        not null check (class in ('complete', 'repairable', 'broken')),
    checked_at   timestamptz not null default now(),
    primary key (group_name, poster, name, provider),
    foreign key (group_name, poster, name) references releases (group_name, poster, name) on delete cascade
);

create index release_availability_due on release_availability (checked_at);
