-- Issue 17: the coordination state that the leasing order, the peers' shares and presence read.

-- When the group's workflow last asked for a lease (cleared by a take and a release): the leasing
-- order is applied among the groups that want a lease, so a group whose workflow is paused, parked
-- or backing off does not keep a slot waiting for it.
alter table group_leases add column wanted_at timestamptz;

-- What each worker reports with its heartbeat: how many groups it may hold, its open NNTP
-- connections and how many it may open, and the news provider's connection limit for the whole
-- fleet as the worker was told it (null: not reported, or not known).
alter table nodes add column max_groups int check (max_groups >= 1);
alter table nodes add column connections int check (connections >= 0);
alter table nodes add column max_connections int check (max_connections >= 1);
alter table nodes add column provider_limit int check (provider_limit >= 1);

-- The watchman's mark in lease_events: the id of the last conflict (takeover, refused write) a
-- scan counted, so each conflict is counted by exactly one scan even when scans overlap.
create table watchman_marks (
    one            boolean primary key default true check (one),
    conflicts_seen bigint not null default 0
);
insert into watchman_marks (one) values (true);
