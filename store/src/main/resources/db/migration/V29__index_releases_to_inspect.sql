-- The releases inspection may enrol (Inspections.ENROL, every HEADWAY_INSPECT_EVERY): complete,
-- filed under Other/Misc or Other/Hashed, not named from their files yet, newest first. Without it
-- enrolment walked releases_posted over the whole catalog and filtered every release, also in the
-- steady state where every candidate is enrolled already and nothing is found (docs/benchmarks.md,
-- "Inspect": 200,000 releases). The predicate is the statement's own, so the planner can use it;
-- a release leaves the index when it is named. What it costs: one more index written with a
-- release of those categories, a small one beside the catalog's.
create index releases_to_inspect on releases (posted desc nulls last)
    where category in (8010, 8020) and complete and real_name is null;
