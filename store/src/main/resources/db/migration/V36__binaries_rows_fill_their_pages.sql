-- Binaries rows that fill their pages (issue 43 item 3): a row longer than 2,032 bytes keeps its
-- packed message-ids (V34) out of line, in the partition's TOAST, uncompressed, and every
-- variable-width column of binaries is stored uncompressed.
--
-- Why: V12 kept rows of up to 8,160 bytes inline (compression had cost a third of the write's
-- CPU). With the ids packed (V34), a RAR volume's row is 2-8 kB (143 parts of Nyuu's ids: about
-- 4.2 kB), and two of those do not fit a page: in bench catalog at 5,000,000 headers, 9,220 of the
-- 22,443 heap pages of the month partitions held one row, and 8.9 of the 45.0 bytes a header were
-- the free ends of pages. TOAST cuts a value in chunks of 1,996 bytes, four to a page, whose ends
-- other values' chunks fill; the heap keeps the rest of the row (the texts, the part numbers and
-- sizes, an 18-byte pointer to the ids), 4 or more rows a page. Measured: 45.0 -> 38.8 bytes a
-- header (ratio 1.62 -> 1.40), PostgreSQL's CPU per header written not worse (docs/benchmarks.md,
-- "Rows that fill their pages").
--
-- Storage EXTERNAL (out of line, never compressed) for every variable-width column, not only the
-- ids: with EXTENDED the toaster tries pglz on each other column of a row over the target before it
-- moves the ids out, which costs CPU for nothing (random letters and hex do not compress, and a
-- part number or size array seldom by the 25 % pglz asks). A row whose ids are out and that is
-- still over the target (a file of more than about 250 parts) moves its size and part number
-- arrays out too, largest first.
--
-- toast_tuple_target is a storage parameter of each partition (a partitioned table has none):
-- set on every partition there is, and by binaries_month (replaced below) on each month it makes.
-- The rows already written are rewritten (each partition and its indexes in turn, locked
-- exclusively as V34 did), so that the catalog takes the new layout at once rather than as rows
-- are merged; the values are the same bytes.
do $$
declare
    p record;
begin
    for p in select inhrelid::regclass as part from pg_inherits where inhparent = 'binaries'::regclass loop
        execute format('alter table %s set (toast_tuple_target = 2032)', p.part);
    end loop;
end
$$;

-- One statement, so that every partition is rewritten once, under the storage it sets: the type
-- change to the same type with an expression that is not the column itself makes PostgreSQL copy
-- each row into a new heap and TOAST (the same bytes: a bytea and an empty one); it would reset the
-- column's storage to the type's, so the storage is set after it in the same statement, which
-- rewrites after all its clauses have run.
alter table binaries
    alter column message_ids type bytea using message_ids || ''::bytea,
    alter column group_name set storage external,
    alter column poster set storage external,
    alter column file_name set storage external,
    alter column release_name set storage external,
    alter column subject set storage external,
    alter column part_numbers set storage external,
    alter column segment_bytes set storage external,
    alter column message_ids set storage external;

-- binaries_month of V33, making each month with the storage above
create or replace function binaries_month(m date) returns boolean
    language plpgsql
as $$
declare
    first_day date;
    next_day  date;
    part      text;
begin
    if m is null or not isfinite(m) then
        return false;
    end if;
    first_day := make_date(extract(year from m)::int, extract(month from m)::int, 1);
    next_day := (first_day + interval '1 month')::date;
    part := 'binaries_' || to_char(first_day, 'YYYY_MM');
    if to_regclass(part) is not null then
        return false;
    end if;
    execute format('create table %I (like binaries including defaults including constraints including generated'
                   ' including storage) with (toast_tuple_target = 2032)', part);
    -- the bounds as a check, so that ATTACH need not scan the new table
    execute format('alter table %I add constraint %I check (posted_month >= %L and posted_month < %L)',
                   part, part || '_month', first_day, next_day);
    execute format('with moved as (delete from binaries_default where posted_month >= %L and posted_month < %L'
                   ' returning *)'
                   ' insert into %I (group_name, poster, file_name, total_parts, release_name, file_total, subject,'
                   ' posted, first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids,'
                   ' bytes, posted_month)'
                   ' select group_name, poster, file_name, total_parts, release_name, file_total, subject, posted,'
                   ' first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids, bytes,'
                   ' posted_month from moved',
                   first_day, next_day, part);
    execute format('alter table binaries attach partition %I for values from (%L) to (%L)', part, first_day, next_day);
    return true;
end
$$;
