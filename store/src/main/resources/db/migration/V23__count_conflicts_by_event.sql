-- The watchman counts each claim conflict (a takeover or a refused write in lease_events) exactly
-- once by a flag on the event, set in the scan's own update: the highest counted id was the mark
-- before, and ids are drawn before commit, so an event whose id was drawn before a scan and
-- committed after it fell behind the mark and was never counted. Concurrent scans (the schedule
-- allows overlap) each set only flags that are still clear, so every event is counted once.
alter table lease_events add column counted boolean not null default false;
update lease_events set counted = true
where id <= (select conflicts_seen from watchman_marks where one);
create index lease_events_uncounted_conflicts on lease_events (id)
    where not counted and kind in ('takeover', 'lease_lost');
