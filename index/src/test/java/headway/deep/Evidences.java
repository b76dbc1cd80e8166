package headway.deep;

import headway.inspect.archive.ArchiveFormat;
import headway.inspect.archive.Listing;
import headway.inspect.archive.VolumeRole;
import headway.inspect.nfo.Nfo;
import headway.inspect.nfo.ReleaseName;
import headway.inspect.par2.Par2File;
import headway.inspect.par2.Par2Set;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** Evidence as inspect's readers return it, built by hand for the naming tests. */
final class Evidences {

    private Evidences() {}

    static Par2File par2File(String name, long length) {
        return new Par2File(hex(name + length), name, length, hex("md5" + name), hex("16k" + name + length));
    }

    static Par2Set par2(Par2File... files) {
        List<String> ids = new ArrayList<>();
        for (Par2File f : files) {
            ids.add(f.id());
        }
        return new Par2Set(
                hex("set"), 65536, ids, List.of(), List.of(files), 0, List.of(), "par2cmdline", files.length, 0, null);
    }

    static Par2Set par2Named(String... namesAndSizes) {
        Par2File[] files = new Par2File[namesAndSizes.length / 2];
        for (int i = 0; i < files.length; i++) {
            files[i] = par2File(namesAndSizes[2 * i], Long.parseLong(namesAndSizes[2 * i + 1]));
        }
        return par2(files);
    }

    static Nfo nfo(List<String> names, List<String> imdb) {
        List<ReleaseName> found = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (String n : names) {
            found.add(new ReleaseName(n, text.length()));
            text.append(n).append('\n');
        }
        int distinct = (int)
                names.stream().map(s -> s.toLowerCase(Locale.ROOT)).distinct().count();
        return new Nfo(text.toString(), "IBM437", false, found, distinct, imdb, List.of(), List.of(), List.of(), null);
    }

    static Nfo nfo(String... names) {
        return nfo(List.of(names), List.of());
    }

    static Listing.Entry entry(String name, long size) {
        return new Listing.Entry(name, OptionalLong.of(size), OptionalLong.of(size), false, false, false, false, false);
    }

    static Listing.Entry entry(String name, long size, boolean encrypted, boolean archive) {
        return new Listing.Entry(
                name, OptionalLong.of(size), OptionalLong.of(size), false, encrypted, archive, false, false);
    }

    static Listing listing(Listing.Entry... entries) {
        return new Listing(ArchiveFormat.RAR5, List.of(entries), false, VolumeRole.FIRST, OptionalInt.of(0), null);
    }

    static Listing encryptedHeaders() {
        return new Listing(ArchiveFormat.SEVEN_ZIP, List.of(), true, VolumeRole.UNSTATED, OptionalInt.empty(), null);
    }

    static Evidence of(List<Par2Set> par2, List<Nfo> nfos, List<Listing> listings) {
        return new Evidence(par2, nfos, listings);
    }

    static String hex(String s) {
        return String.format(
                "%032x", new BigInteger(1, s.getBytes(StandardCharsets.UTF_8)).mod(BigInteger.TWO.pow(128)));
    }
}
