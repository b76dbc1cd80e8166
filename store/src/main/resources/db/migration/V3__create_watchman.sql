-- The watchman's record: moves that stopped moving (stuck), the presence of nodes, and the last
-- progress the scans saw of each group (lag) and each leased range (cursor). Stuck records are closed (moved_at set), never deleted, so the history
-- stays readable. Every time here is database time (hw_now()).

-- A move that stopped moving: what (kind, subject), what it waited for, since when it has not moved.
-- At most one open record per move (the partial unique index), so concurrent or repeated scans
-- cannot open a second one; a move that gets stuck again after it moved opens a new record.
create table stuck_moves (
    id          bigserial primary key,
    kind        text not null check (kind in ('range', 'group', 'workflow')),
    subject     text not null,
    group_name  text,
    waited_for  text not null,
    since       timestamptz not null,
    detected_at timestamptz not null default hw_now(),
    moved_at    timestamptz,
    moved_how   text,
    detail      text,
    check ((moved_at is null) = (moved_how is null))
);

create unique index stuck_moves_open on stuck_moves (kind, subject) where moved_at is null;
create index stuck_moves_group on stuck_moves (group_name, id);

-- Whether a subject (a node of the registry) is online, since the last change, and when it was last seen alive.
create table presence (
    subject_kind text not null check (subject_kind in ('node')),
    subject_id   text not null,
    online       boolean not null,
    since        timestamptz not null,
    last_seen    timestamptz,
    primary key (subject_kind, subject_id)
);

-- Per group, the lag (articles left in unfinished ranges) the last scan saw and the last time it
-- shrank (or started from zero): a group whose lag has not shrunk for longer than the bound is stuck.
create table group_progress (
    group_name text primary key references groups (name) on delete cascade,
    lag        bigint not null check (lag >= 0),
    changed_at timestamptz not null
);

-- Per leased range, the cursor and lease the last scan saw and when the cursor last moved: a
-- heartbeat renews ranges.heartbeat_at even when the cursor stays put (a fetch failing over and
-- over), so the heartbeat alone cannot tell a range that moves from one that only breathes.
create table range_progress (
    range_id     bigint primary key references ranges (id) on delete cascade,
    next_article bigint not null,
    leased_at    timestamptz,
    changed_at   timestamptz not null
);
