-- Which transaction added each release (issue 42), so that a client walking the pages of one search
-- reads the catalog as its first page saw it: the first page's search records its snapshot
-- (pg_current_snapshot()), and the later pages of the same walk answer only releases whose adding
-- transaction that snapshot saw (pg_visible_in_snapshot). A release added during the walk then
-- moves no other release a place on, and shows on the next walk's first page.
--   added  the id of the transaction that inserted the row (pg_current_xact_id()); an update of
--          the release (more files, a name from its files) keeps it. Null for releases written
--          before V31: every walk sees them.
-- Adding a nullable column without a default is a catalog change only (no rewrite of releases);
-- the default is set apart for the same reason, so only rows inserted from now on carry it.
alter table releases add column added xid8;
alter table releases alter column added set default pg_current_xact_id();
