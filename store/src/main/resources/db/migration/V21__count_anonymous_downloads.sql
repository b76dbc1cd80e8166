-- NZB downloads from the search page without a key (HEADWAY_HTTP_PAGE_NZB), all such clients
-- together, per UTC day: one upsert counts a download and refuses it past the day's limit
-- (HEADWAY_HTTP_PAGE_NZB_PER_DAY), atomically across serve instances, as api_usage does for keys.
create table anonymous_usage (
    day   date primary key,
    grabs int not null default 0 check (grabs >= 0)
);
