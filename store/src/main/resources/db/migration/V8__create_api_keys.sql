-- The front door (headway serve): API keys, their daily counts, a stable guid per release and
-- its grab count. Everything a serve instance knows lives here, so any number of them can run
-- behind a load balancer and a restart loses nothing.

-- A key is stored only as the sha256 of its text; the text is shown once, by `apikey add`.
-- A null limit is no limit. A revoked key stays (its name is not reused) and is answered as
-- suspended (newznab error 101).
create table api_keys (
    name          text primary key,
    key_sha256    bytea not null unique check (length(key_sha256) = 32),
    api_per_day   int check (api_per_day >= 0),
    grabs_per_day int check (grabs_per_day >= 0),
    created_at    timestamptz not null default now(),
    revoked_at    timestamptz
);

-- Requests and grabs of a key on one UTC day; one upsert per request counts it, and refuses it
-- past the limit, atomically across serve instances.
create table api_usage (
    key_name text not null references api_keys (name),
    day      date not null,
    requests int not null default 0,
    grabs    int not null default 0,
    primary key (key_name, day)
);

-- The newznab guid of a release: md5 of its natural key, so it is stable across re-indexing,
-- identical on every node, and computable in Java (ReleaseGuids.of) without a lookup.
alter table releases
    add column guid text generated always as (md5(group_name || E'\n' || poster || E'\n' || name)) stored;
create unique index releases_guid on releases (guid);

create table release_grabs (
    guid  text primary key,
    grabs bigint not null default 0
);
