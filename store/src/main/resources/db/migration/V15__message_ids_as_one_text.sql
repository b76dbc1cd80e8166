-- A binary's message-ids become one text value, the ids in part order with a tab between them (a
-- message-id holds no tab: overview fields are split on tabs, and headway refuses one). As a
-- text[] every id was a field of its own that PostgreSQL received, checked and laid out one by
-- one: writing binaries of 10-50 parts by binary COPY cost 0.50 us of PostgreSQL CPU per segment
-- with the array and 0.43 with one text value (medians of 9 rounds of 1.2 million segments,
-- embedded PostgreSQL 17, the other columns as they are).
--
-- message_id_array(ids) gives the ids back as an array, for the statements that merge or search
-- segments and for anyone reading the catalog by hand:
--   select m from binaries, unnest(message_id_array(message_ids)) as m where ...
-- The empty text is one empty id (a binary keeps no row without segments); string_to_array alone
-- would make it none. One SQL expression, not strict, so PostgreSQL inlines it into the statement.
create function message_id_array(ids text) returns text[]
    language sql immutable parallel safe
    as $$ select case when ids = '' then '{""}'::text[] else string_to_array(ids, E'\t') end $$;

-- The count of ids is no longer checked by the table (counting the tabs of every row written
-- would cost much of what this saves); the writers build the text from the segments, and the
-- reader refuses a row whose count of ids differs from its count of parts.
alter table binaries drop constraint binaries_check;

alter table binaries alter column message_ids type text using array_to_string(message_ids, E'\t');

alter table binaries add constraint binaries_segments_check
    check (cardinality(part_numbers) = cardinality(segment_bytes));
