-- A node's leases end with its registry row: each heartbeat writes when the row expires (its
-- heartbeat plus the node TTL the worker runs with), and a lease whose holder's row has expired
-- is free at once, fenced as any takeover, instead of after the lease TTL. A row an older build
-- wrote has no expiry and frees nothing early.
alter table nodes add column expires_at timestamptz;
