"""Independent consumers of headway's front door: PyPI's feedparser reads the newznab feed, PyPI's
nzb reads the NZBs that t=get hands out. Started by PythonConsumersTest with the server's base URL
and an API key; exits non-zero (with the reason) on the first check that fails."""

import sys
import urllib.error
import urllib.parse
import urllib.request

import feedparser
import nzb

base, key = sys.argv[1], sys.argv[2]
checks = 0


def check(condition, what):
    global checks
    if not condition:
        print("FAILED: " + what, file=sys.stderr)
        sys.exit(1)
    checks += 1


def api(**params):
    return base + "/api?" + urllib.parse.urlencode(dict(params, apikey=key))


def feed(**params):
    parsed = feedparser.parse(api(**params))
    check(not parsed.bozo, "feedparser reads %s without complaint: %r" % (params, parsed.get("bozo_exception")))
    check(parsed.version == "rss20", "an RSS 2.0 feed, was %r" % parsed.version)
    return parsed


every = feed(t="search")
check(len(every.entries) == 5, "five releases without q, got %d" % len(every.entries))
for entry in every.entries:
    check(entry.get("published_parsed") is not None, "a parseable pubDate on " + entry.title)
    nzbs = [e for e in entry.enclosures if e.get("type") == "application/x-nzb"]
    check(len(nzbs) == 1, "one application/x-nzb enclosure on " + entry.title)
    check(int(nzbs[0]["length"]) > 0, "an enclosure length on " + entry.title)
    check(entry.link == nzbs[0]["href"], "link and enclosure agree on " + entry.title)
    check(len(entry.id) == 32, "a guid on " + entry.title)

tv = feed(t="tvsearch", q="some show", season="S01", ep="E02")
check([e.title for e in tv.entries] == ["Some.Show.S01E02.720p.WEB-GRP"], "tv-search q,season,ep: %r" % [e.title for e in tv.entries])
check(tv.feed.get("newznab_response", {}).get("total") == "1", "newznab:response total: %r" % tv.feed.get("newznab_response"))

cats = feed(t="search", cat="5030,5040")
check(len(cats.entries) >= 3, "the newest TV without q")
movies = feed(t="search", cat="2000")
check([e.title for e in movies.entries] == ["A.Movie.2026.1080p.BluRay.x264-GRP"], "the newest movies without q")

hostile = feed(t="search", q="weird <&\"'>")
check([e.title for e in hostile.entries] == ["Weird <&\"'> name 100%"], "a hostile name survives: %r" % [e.title for e in hostile.entries])

for entry in every.entries:
    with urllib.request.urlopen(entry.link, timeout=20) as response:
        check(response.headers.get_content_type() == "application/x-nzb", "t=get is application/x-nzb")
        check("attachment; filename=" in response.headers.get("Content-Disposition", ""), "a file name")
        text = response.read().decode("utf-8")
    parsed = nzb.Nzb.from_str(text)
    files = parsed.files
    check(len(files) >= 1, "the nzb package finds files in " + entry.title)
    size = sum(s.size for f in files for s in f.segments)
    length = int([e for e in entry.enclosures if e.get("type") == "application/x-nzb"][0]["length"])
    check(size == length, "segment bytes %d equal the enclosure length %d for %s" % (size, length, entry.title))
    check(parsed.meta.title == entry.title, "the NZB's name meta is the release name: %r" % parsed.meta.title)
    check(all("alt.binaries.test" in f.groups for f in files), "every file names the group")

try:
    urllib.request.urlopen(base + "/api?t=search&apikey=wrong", timeout=20)
    check(False, "a wrong key is refused")
except urllib.error.HTTPError as e:
    body = feedparser.parse(e.read())
    check(e.code == 401, "a wrong key is HTTP 401, was %d" % e.code)

print("consumers: %d checks passed" % checks)
