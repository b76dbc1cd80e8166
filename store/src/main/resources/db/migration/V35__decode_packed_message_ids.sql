-- message_id_array(ids) for the packed message-ids of V34 (headway.store.MessageIdPack): the ids
-- of a binary as an array, in part order, for tests and anyone reading the catalog by hand:
--   select m from binaries, unnest(message_id_array(message_ids)) as m where ...
-- It reads the bit stream as the Java decoder does and trusts it (the catalog's writers make it);
-- a value cut short fails on get_byte. PL/pgSQL, so slow (tens of microseconds an id): the write
-- path, the merge, the placements, the NZB reader and the inspection's body fetch decode in Java.
drop function message_id_array(text);

create function message_id_bits(ids bytea, at bigint, n int) returns bigint
    language plpgsql immutable strict parallel safe
as $$
declare
    v bigint := 0;
begin
    for i in 0 .. n - 1 loop
        v := (v << 1) | ((get_byte(ids, ((at + i) / 8)::int) >> (7 - ((at + i) % 8)::int)) & 1);
    end loop;
    return v;
end
$$;

create function message_id_varint(ids bytea, at bigint) returns bigint[]
    language plpgsql immutable strict parallel safe
as $$
declare
    v bigint := 0;
    shift int := 0;
    g bigint;
    pos bigint := at;
begin
    loop
        g := message_id_bits(ids, pos, 4);
        pos := pos + 4;
        v := v | ((g & 7) << shift);
        shift := shift + 3;
        exit when g & 8 = 0;
    end loop;
    return array[v, pos];
end
$$;

create function message_id_array(ids bytea) returns text[]
    language plpgsql immutable strict parallel safe
as $$
declare
    alphabets constant text[] := array[
        '0123456789', '0123456789abcdef', '0123456789ABCDEF', 'abcdefghijklmnopqrstuvwxyz',
        'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789abcdefghijklmnopqrstuvwxyz',
        '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
        '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'];
    blocks constant int[] := array[18, 15, 15, 13, 13, 12, 12, 11, 10];
    total bigint := octet_length(ids)::bigint * 8;
    at bigint := 0;
    result text[] := '{}';
    prev bytea[];
    cur bytea[];
    same boolean;
    op bigint;
    a int;
    len bigint;
    vr bigint[];
    z bigint;
    d numeric;
    base bigint;
    n bigint;
    blk int;
    nbits int;
    x bigint;
    run text;
    piece text;
    first int;
    joined bytea;
begin
    while at < total loop
        same := message_id_bits(ids, at, 1) = 1;
        -- two zero bits where an id would start (or one, last) end the value
        exit when not same and (at + 2 > total or message_id_bits(ids, at + 1, 1) = 0);
        at := at + case when same then 1 else 2 end;
        if same then
            if prev is null then
                raise exception 'the first message-id cannot repeat a previous one''s shape';
            end if;
            cur := prev;
        else
            vr := message_id_varint(ids, at);
            at := vr[2];
            cur := array_fill(null::bytea, array[vr[1]::int]);
        end if;
        for t in 1 .. coalesce(array_length(cur, 1), 0) loop
            if same then
                first := get_byte(cur[t], 0);
                if not (first between 48 and 57 or first between 65 and 90 or first between 97 and 122) then
                    continue;
                end if;
                op := message_id_bits(ids, at, 2);
                at := at + 2;
                if op = 0 then
                    continue;
                elsif op = 1 then
                    vr := message_id_varint(ids, at);
                    at := vr[2];
                    z := vr[1];
                    d := ((z >> 1) & 9223372036854775807)::numeric;
                    if z & 1 = 1 then
                        d := -d - 1;
                    end if;
                    cur[t] := convert_to(lpad((convert_from(cur[t], 'UTF8')::numeric + d)::text,
                                              octet_length(cur[t]), '0'), 'UTF8');
                    continue;
                end if;
                if op = 2 then
                    -- the run's length and alphabet: the first alphabet that holds all its characters
                    len := octet_length(cur[t]);
                    run := convert_from(cur[t], 'UTF8');
                    a := 1;
                    while exists (select 1 from regexp_split_to_table(run, '') as ch
                                  where strpos(alphabets[a], ch) = 0) loop
                        a := a + 1;
                    end loop;
                else
                    a := message_id_bits(ids, at, 4)::int + 1;
                    at := at + 4;
                    vr := message_id_varint(ids, at);
                    at := vr[2];
                    len := vr[1];
                end if;
            else
                if message_id_bits(ids, at, 1) = 0 then
                    cur[t] := set_byte('\x00'::bytea, 0, message_id_bits(ids, at + 1, 8)::int);
                    at := at + 9;
                    continue;
                end if;
                a := message_id_bits(ids, at + 1, 4)::int + 1;
                vr := message_id_varint(ids, at + 5);
                at := vr[2];
                len := vr[1];
            end if;
            base := length(alphabets[a]);
            run := '';
            n := 0;
            while n < len loop
                blk := least(blocks[a], len - n)::int;
                x := 1;
                for i in 1 .. blk loop
                    x := x * base;
                end loop;
                x := x - 1;
                nbits := 0;
                while x > 0 loop
                    x := x >> 1;
                    nbits := nbits + 1;
                end loop;
                x := message_id_bits(ids, at, nbits);
                at := at + nbits;
                piece := '';
                for i in 1 .. blk loop
                    piece := substr(alphabets[a], (x % base)::int + 1, 1) || piece;
                    x := x / base;
                end loop;
                run := run || piece;
                n := n + blk;
            end loop;
            cur[t] := convert_to(run, 'UTF8');
        end loop;
        joined := '';
        for t in 1 .. coalesce(array_length(cur, 1), 0) loop
            joined := joined || cur[t];
        end loop;
        result := result || convert_from(joined, 'UTF8');
        prev := cur;
    end loop;
    return result;
end
$$;
