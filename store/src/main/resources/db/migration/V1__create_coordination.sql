-- Coordination state: groups, their article ranges, the lease on each group, the node registry,
-- snapshots of group windows, and the record of lease events (takes, takeovers, refused writes).

-- Database time, made testable: every comparison across nodes uses hw_now(). In production the
-- clock_skew table is empty and hw_now() is now(); tests move the database's clock forward.
create table clock_skew (
    id   boolean primary key default true check (id),
    skew interval not null
);

create function hw_now() returns timestamptz
    language sql stable
as $$ select now() + coalesce((select skew from clock_skew), interval '0') $$;

create table groups (
    name       text primary key check (name ~ '^[A-Za-z0-9+_-]+(\.[A-Za-z0-9+_-]+)*$'),
    priority   integer not null default 0,   -- lower is more urgent, like range priority
    active     boolean not null default true,
    created_at timestamptz not null default now()
);

-- A range [start_article, end_article] of a group with its cursor next_article (the next article
-- to index). Tail ranges have a negative priority and come before history ranges.
create table ranges (
    id            bigserial primary key,
    group_name    text not null references groups (name) on delete cascade,
    start_article bigint not null check (start_article >= 0),
    end_article   bigint not null,
    next_article  bigint not null,
    status        text not null default 'planned' check (status in ('planned', 'leased', 'done')),
    priority      integer not null,
    node_id       text,
    leased_at     timestamptz,
    heartbeat_at  timestamptz,
    done_at       timestamptz,
    attempts      integer not null default 0,
    rule_version  integer,
    unique (group_name, start_article),
    check (end_article >= start_article),
    check (next_article between start_article and end_article + 1)
);

create index ranges_planned on ranges (group_name, priority, start_article) where status = 'planned';
create index ranges_leased on ranges (group_name) where status = 'leased';

-- The lease on a group. epoch grows at every take; every holder write names it.
create table group_leases (
    group_name       text primary key references groups (name) on delete cascade,
    holder_node      text,
    epoch            bigint not null default 0,
    leased_at        timestamptz,
    heartbeat_at     timestamptz,
    free_since       timestamptz,
    current_range_id bigint,
    snapshot_next    bigint,
    snapshot_at      timestamptz,
    ranges_done      bigint not null default 0,
    headers          bigint not null default 0
);

create table nodes (
    id           text primary key,
    address      text not null,
    started_at   timestamptz not null default now(),
    heartbeat_at timestamptz not null
);

-- A snapshot of a group's window, stored in chunks so that neither writing nor reading holds it
-- whole in memory. Only a committed, checksummed snapshot replaces the previous one.
create table snapshots (
    id           bigserial primary key,
    group_name   text not null unique references groups (name) on delete cascade,
    epoch        bigint not null,
    next_article bigint not null,
    bytes        bigint not null,
    sha256       bytea not null,
    created_at   timestamptz not null default now()
);

create table snapshot_chunks (
    snapshot_id bigint not null references snapshots (id) on delete cascade,
    seq         integer not null,
    data        bytea not null,
    primary key (snapshot_id, seq)
);

-- Takes, takeovers and refused stale writes: the record `status --conflicts` and the watchman read.
create table lease_events (
    id           bigserial primary key,
    group_name   text not null,
    kind         text not null check (kind in ('take', 'takeover', 'lease_lost')),
    node_id      text not null,
    epoch        bigint not null,
    other_node   text,
    other_epoch  bigint,
    detail       text,
    at           timestamptz not null default hw_now()
);

create index lease_events_group on lease_events (group_name, id);
