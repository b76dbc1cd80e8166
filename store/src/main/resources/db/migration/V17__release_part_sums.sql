-- A release's completion is computed from the sums of its binaries' parts present and parts in
-- all, which were summed again from every binary of the release each time a write added to it:
-- tens of wide binary rows read per release row written, hundreds for a season pack, so a release
-- of n files written over k batches cost n x k row reads. The release keeps the two sums now, so a write that
-- only adds new binaries (binary COPY of fresh ones) adds their totals to the release
-- (CatalogStore's DELTA_RELEASES); a write that merges into binaries already stored, or that
-- moves articles between binaries, still recomputes the release from all its binaries.
alter table releases add column parts_present bigint not null default 0,
                     add column total_parts   bigint not null default 0;

update releases r
set parts_present = a.parts_present, total_parts = a.total_parts
from (select group_name, poster, release_name,
             sum(parts_present) as parts_present, sum(total_parts) as total_parts
      from binaries
      group by group_name, poster, release_name) a
where r.group_name = a.group_name and r.poster = a.poster and r.name = a.release_name;
