package headway.deep;

import headway.inspect.HostileText;
import headway.inspect.archive.Listing;
import headway.inspect.nfo.Nfo;
import headway.inspect.nfo.ReleaseName;
import headway.inspect.par2.Par2File;
import headway.inspect.par2.Par2Set;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Decides a release's real name, its newznab password and its IMDb id from the evidence read out
 * of its files. Agreeing sources win: an NFO that names one release, whose name is also a file of
 * the PAR2 set or of the archive; else the PAR2 set's main file (the name its files carry the most
 * bytes under, less volume suffix and extension), else the archive's, else an NFO alone. An NFO
 * that names several releases (a group's earlier ones, a pack) names none, and a source whose main
 * file is garbage or looks hashed names nothing ({@link RealNames}). A release whose subject
 * already names it is renamed only to a name that agrees with it: the same name, or the same name
 * with more words after it. Every choice breaks ties by the text itself, never by the order the
 * evidence came in, so the answer does not depend on that order.
 */
public final class ReleaseNamer {

    /** How much of a name a reason quotes. */
    private static final int QUOTE_CHARS = 120;

    private ReleaseNamer() {}

    /**
     * What to record for a release.
     *
     * @param currentName the release's name now (from the subjects, or a token)
     * @param obfuscated whether that name looks obfuscated (then any supported name replaces it)
     * @param files the files posted, in posting order
     * @param evidence what was read inside them
     */
    public static Naming decide(String currentName, boolean obfuscated, List<PostedFile> files, Evidence evidence) {
        List<Named> par2 = par2Files(evidence.par2(), files);
        List<Named> archive = archiveEntries(evidence.listings());
        Optional<String> nfo = nfoName(evidence.nfos());
        Main par2Main = Main.of(par2);
        Main archiveMain = Main.of(archive);
        List<String> why = new ArrayList<>();
        Optional<String> name = Optional.empty();
        Set<Source> by = EnumSet.noneOf(Source.class);
        if (nfo.isPresent() && (contains(par2, nfo.get()) || contains(archive, nfo.get()))) {
            name = nfo;
            by.add(Source.NFO);
            if (contains(par2, nfo.get())) {
                by.add(Source.PAR2);
            }
            if (contains(archive, nfo.get())) {
                by.add(Source.ARCHIVE);
            }
            why.add("the NFO's one release name is a file of the "
                    + (by.contains(Source.PAR2) ? "PAR2 set" : "archive"));
        } else if (par2Main.name().isPresent()) {
            name = par2Main.name();
            by.add(Source.PAR2);
            if (contains(archive, name.get())) {
                by.add(Source.ARCHIVE);
            }
            why.add("the PAR2 set's main file" + (by.contains(Source.ARCHIVE) ? ", also in the archive" : ""));
        } else if (archiveMain.name().isPresent()) {
            name = archiveMain.name();
            by.add(Source.ARCHIVE);
            why.add("the archive's main file");
        } else if (nfo.isPresent()) {
            name = nfo;
            by.add(Source.NFO);
            why.add("the NFO's one release name");
        }
        notes(why, par2Main, archiveMain, evidence.nfos(), nfo, name);
        if (name.isPresent()
                && !obfuscated
                && !RealNames.key(currentName).isEmpty()
                && !agrees(name.get(), currentName)) {
            why.add(
                    0,
                    "kept " + quote(currentName) + ": the subject names it and the evidence names "
                            + quote(name.get()));
            name = Optional.empty();
            by.clear();
        } else if (name.isPresent()) {
            why.add(
                    0,
                    "named " + quote(name.get()) + " by "
                            + String.join("+", by.stream().map(Source::name).toList()));
        } else {
            why.add(0, "not named");
        }
        int password = password(evidence.listings(), why);
        Optional<String> imdb = imdb(evidence.nfos(), why);
        Optional<Long> tvdb = only("tvdb", evidence.nfos().stream().flatMap(n -> n.tvdbIds().stream()), why);
        Optional<Long> tvmaze = only("tvmaze", evidence.nfos().stream().flatMap(n -> n.tvmazeIds().stream()), why);
        return new Naming(name, by, password, imdb, String.join("; ", why), tvdb, tvmaze);
    }

    /** Whether {@code evidence} names the release {@code subject} names: the same words, or more after them. */
    static boolean agrees(String evidence, String subject) {
        String e = RealNames.key(evidence);
        String s = RealNames.key(subject);
        return e.equals(s) || e.startsWith(s + " ");
    }

    /** A file of the PAR2 set or the archive, as a release name key and its weight in bytes. */
    private record Named(String key, String raw, long bytes) {}

    /** The main file of a source: the key with the most bytes, and its accepted name, if any. */
    private record Main(String key, Optional<String> name) {

        static Main of(List<Named> files) {
            TreeMap<String, Long> weight = new TreeMap<>();
            for (Named f : files) {
                weight.merge(f.key(), f.bytes(), ReleaseNamer::saturatedAdd);
            }
            String best = null;
            for (var e : weight.entrySet()) { // keys in order: the first of equal weights wins
                if (best == null || e.getValue() > weight.get(best)) {
                    best = e.getKey();
                }
            }
            if (best == null) {
                return new Main("", Optional.empty());
            }
            TreeSet<String> forms = new TreeSet<>();
            long most = -1;
            for (Named f : files) {
                if (f.key().equals(best)) {
                    Optional<String> accepted = RealNames.accept(f.raw());
                    if (accepted.isPresent() && f.bytes() >= most) {
                        if (f.bytes() > most) {
                            forms.clear();
                            most = f.bytes();
                        }
                        forms.add(accepted.get());
                    }
                }
            }
            return new Main(best, forms.isEmpty() ? Optional.empty() : Optional.of(forms.first()));
        }
    }

    /** The PAR2 sets' files, once each; only those a posted file's first 16 KiB match, when any do. */
    private static List<Named> par2Files(List<Par2Set> sets, List<PostedFile> posted) {
        Set<String> heads = new HashSet<>();
        for (PostedFile p : posted) {
            if (!p.md5Of16k().isEmpty()) {
                heads.add(p.md5Of16k() + "/" + p.size());
            }
        }
        Set<Par2File> all = new HashSet<>();
        sets.forEach(s -> all.addAll(s.files()));
        List<Par2File> matched = all.stream()
                .filter(f -> heads.contains(f.md5Of16k() + "/" + f.length()))
                .toList();
        List<Named> out = new ArrayList<>();
        for (Par2File f : matched.isEmpty() ? all : matched) {
            String raw = RealNames.ofFile(f.name());
            out.add(new Named(RealNames.key(raw), raw, Math.max(0, f.length())));
        }
        return out;
    }

    /** The archive listings' files (not directories), once each by name and size. */
    private static List<Named> archiveEntries(List<Listing> listings) {
        Set<String> seen = new HashSet<>();
        List<Named> out = new ArrayList<>();
        for (Listing l : listings) {
            for (Listing.Entry e : l.entries()) {
                long size = Math.max(0, e.size().orElse(0));
                if (!e.directory() && seen.add(e.name() + "\u0000" + size)) {
                    String raw = RealNames.ofFile(e.name());
                    out.add(new Named(RealNames.key(raw), raw, size));
                }
            }
        }
        return out;
    }

    /** The one release the NFOs name, when they name exactly one and it may be a real name. */
    private static Optional<String> nfoName(List<Nfo> nfos) {
        TreeMap<String, TreeSet<String>> byKey = new TreeMap<>();
        for (Nfo n : nfos) {
            for (ReleaseName r : n.releaseNames()) {
                String raw = r.name() == null ? "" : r.name();
                byKey.computeIfAbsent(RealNames.key(raw), k -> new TreeSet<>()).add(raw);
            }
        }
        if (byKey.size() != 1) {
            return Optional.empty();
        }
        for (String raw : byKey.firstEntry().getValue()) {
            Optional<String> accepted = RealNames.accept(raw);
            if (accepted.isPresent()) {
                return accepted;
            }
        }
        return Optional.empty();
    }

    private static boolean contains(List<Named> files, String name) {
        String key = RealNames.key(name);
        return files.stream().anyMatch(f -> f.key().equals(key));
    }

    /** What a reader of the reason wants to know besides the choice: sources that disagreed or were refused. */
    private static void notes(
            List<String> why, Main par2, Main archive, List<Nfo> nfos, Optional<String> nfo, Optional<String> name) {
        if (!par2.key().isEmpty() && par2.name().isEmpty()) {
            why.add("the PAR2 set's main file " + quote(par2.key()) + " is no release name");
        }
        if (!archive.key().isEmpty() && archive.name().isEmpty()) {
            why.add("the archive's main file " + quote(archive.key()) + " is no release name");
        }
        long names = nfos.stream()
                .flatMap(n -> n.releaseNames().stream())
                .map(r -> RealNames.key(r.name()))
                .distinct()
                .count();
        if (names > 1) {
            why.add("the NFO names " + names + " releases, so none of them");
        }
        if (nfo.isPresent() && name.isPresent() && !RealNames.key(nfo.get()).equals(RealNames.key(name.get()))) {
            why.add("the NFO names " + quote(nfo.get()) + ", which no file confirms");
        }
    }

    /** 1 when a listing has encrypted headers or entries, else 2 when it holds an archive, else 0. */
    private static int password(List<Listing> listings, List<String> why) {
        if (listings.stream().anyMatch(Listing::headersEncrypted)) {
            why.add("password 1: the archive's headers are encrypted");
            return Naming.PASSWORDED;
        }
        if (listings.stream().anyMatch(Listing::passworded)) {
            why.add("password 1: the archive's entries are encrypted");
            return Naming.PASSWORDED;
        }
        if (listings.stream().anyMatch(Listing::innerArchive)) {
            why.add("password 2: an archive inside the archive");
            return Naming.POSSIBLY_PASSWORDED;
        }
        return Naming.NOT_PASSWORDED;
    }

    /** The IMDb id when the NFOs carry exactly one well-formed one. */
    private static Optional<String> imdb(List<Nfo> nfos, List<String> why) {
        TreeSet<String> ids = new TreeSet<>();
        for (Nfo n : nfos) {
            for (String id : n.imdbIds()) {
                if (isImdbId(id)) {
                    ids.add(id);
                }
            }
        }
        if (ids.size() == 1) {
            why.add("imdb " + ids.first());
            return Optional.of(ids.first());
        }
        if (ids.size() > 1) {
            why.add("the NFO carries " + ids.size() + " IMDb ids, so none");
        }
        return Optional.empty();
    }

    /** The one series id of a kind the NFOs link (ids from 1 to 10 digits), none when they link several. */
    private static Optional<Long> only(String kind, Stream<Long> ids, List<String> why) {
        TreeSet<Long> distinct =
                ids.filter(id -> id > 0 && id <= 9_999_999_999L).collect(Collectors.toCollection(TreeSet::new));
        if (distinct.size() == 1) {
            why.add(kind + " " + distinct.first());
            return Optional.of(distinct.first());
        }
        if (distinct.size() > 1) {
            why.add("the NFO links " + distinct.size() + " " + kind + " ids, so none");
        }
        return Optional.empty();
    }

    /** {@code tt} and 7 or 8 ASCII digits. */
    static boolean isImdbId(String id) {
        if (id == null || id.length() < 9 || id.length() > 10 || !id.startsWith("tt")) {
            return false;
        }
        return id.chars().skip(2).allMatch(c -> c >= '0' && c <= '9');
    }

    private static String quote(String s) {
        String t = HostileText.clean(s == null ? "" : s, QUOTE_CHARS + 1);
        if (t.length() > QUOTE_CHARS) {
            int cut = Character.isHighSurrogate(t.charAt(QUOTE_CHARS - 1)) ? QUOTE_CHARS - 1 : QUOTE_CHARS;
            t = t.substring(0, cut) + "…";
        }
        return "'" + t + "'";
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
