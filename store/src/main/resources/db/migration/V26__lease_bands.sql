-- Worker roles (HEADWAY_WORKER_ROLE): a group is held by a tail worker, a history worker or one of
-- both bands ('tail', 'history', 'all'), one at a time, and the window a holder snapshots covers
-- the ranges of its band only. The take records the holder's band, a snapshot the band it was
-- taken in; a take in another band ignores that snapshot and rebuilds its own band's window, and
-- ranges done past a snapshot count as work only in the snapshot's band. Null, for leases and
-- snapshots from before roles, is 'all'.
alter table group_leases add column holder_band text, add column snapshot_band text;
