-- Two more ways a group's header provider switch is mapped (issue 44):
--   'low-water'   a worker that has read no header of the group finds no binary of it in the catalog
--                 before the cursor: the new provider's first article is the catalog's next one
--                 (anchor: that article's number on the provider);
--   'high-water'  the new provider's high-water mark, in catalog numbers, is below the group's highest
--                 planned article: its next article is the one after the highest planned (anchor: its
--                 high-water mark), so its later posts do not take numbers of ranges already read.
alter table group_provider_switches drop constraint group_provider_switches_mapped_by_check;
alter table group_provider_switches add constraint group_provider_switches_mapped_by_check
    check (mapped_by in ('start', 'message-id', 'date', 'low-water', 'high-water'));
