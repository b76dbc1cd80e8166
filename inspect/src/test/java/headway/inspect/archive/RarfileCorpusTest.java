package headway.inspect.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every RAR archive of rarfile 4.5's test set (ISC licence; unpacked into .tools by
 * bin/install-test-tools) against rarfile's own expected listing beside it ({@code *.exp}, what its
 * dumprar prints): names, unpacked sizes, directories, encryption, and in which volume each file
 * starts. Archives with encrypted headers must give an empty, passworded listing (their .exp was
 * made with the password).
 */
class RarfileCorpusTest {

    /** The volume sets, each volume's index in its set: .exp of the first volume lists the set. */
    private static final Map<String, List<String>> SETS = Map.of(
            "rar3-vols.part1.rar", List.of("rar3-vols.part1.rar", "rar3-vols.part2.rar", "rar3-vols.part3.rar"),
            "rar5-vols.part1.rar", List.of("rar5-vols.part1.rar", "rar5-vols.part2.rar", "rar5-vols.part3.rar"),
            "rar3-old.rar", List.of("rar3-old.rar", "rar3-old.r00", "rar3-old.r01"));

    private static final Pattern ENTRY = Pattern.compile("(?m)^(?:R5_)?FILE: .*?is=(...)$");
    private static final Pattern VOL = Pattern.compile("(?m)^  .*\\bdec=(\\d+) vol=(\\d+)");

    /** What rarfile's .exp says an entry is: name, size, kind, encryption, first volume. */
    record Expected(String name, long size, boolean directory, boolean symlink, boolean encrypted, int volume) {}

    @Test
    void everyArchiveListsWhatRarfileExpects() throws Exception {
        Path dir = TestTools.rarfileFiles();
        Set<String> inSets = new HashSet<>();
        SETS.values().forEach(inSets::addAll);
        int archives = 0;
        int entries = 0;
        for (Path exp : TestTools.volumes(dir, "")) {
            String name = exp.getFileName().toString();
            if (!name.endsWith(".rar.exp") || inSets.contains(name.replace(".exp", ""))) {
                continue;
            }
            List<Expected> expected = expected(exp);
            byte[] b = TestTools.read(dir.resolve(name.replace(".exp", "")));
            Listing l = Archives.list(b, b, 0).orElseThrow();
            archives++;
            if (name.contains("hpsw")) {
                assertThat(l.headersEncrypted()).as(name).isTrue();
                assertThat(l.entries()).as(name).isEmpty();
                continue;
            }
            assertThat(set(l.entries())).as(name).isEqualTo(set(expected, 0));
            assertDirectories(name, l.entries(), expected);
            entries += l.entries().size();
        }
        for (Map.Entry<String, List<String>> set : SETS.entrySet()) {
            List<Expected> expected = expected(dir.resolve(set.getKey() + ".exp"));
            for (int v = 0; v < set.getValue().size(); v++) {
                String volume = set.getValue().get(v);
                byte[] b = TestTools.read(dir.resolve(volume));
                Listing l = Archives.list(b, b, 0).orElseThrow();
                archives++;
                List<Listing.Entry> starting =
                        l.entries().stream().filter(e -> !e.splitBefore()).toList();
                assertThat(set(starting)).as(volume).isEqualTo(set(expected, v));
                assertThat(l.volume()).as(volume).isEqualTo(v == 0 ? VolumeRole.FIRST : VolumeRole.LATER);
                entries += l.entries().size();
            }
        }
        assertThat(archives).as("archives checked").isGreaterThanOrEqualTo(50);
        assertThat(entries).as("entries checked").isGreaterThanOrEqualTo(100);
    }

    /** Every expected entry that is not a symlink has our directory flag (rarfile's is_dir). */
    private static void assertDirectories(String archive, List<Listing.Entry> ours, List<Expected> expected) {
        for (Expected e : expected) {
            if (!e.symlink()) {
                assertThat(ours)
                        .as("%s: %s is a directory: %s", archive, e.name(), e.directory())
                        .anyMatch(o -> o.name().equals(e.name()) && o.directory() == e.directory());
            }
        }
    }

    /**
     * Our entries as (name, size, encrypted), without RAR 3's older file versions ({@code name;N}):
     * the reader lists every header, rarfile lists the newest version only. Directories count with
     * size 0, as rarfile reports them; a set, because RAR 5 versions repeat the same name.
     */
    private static Set<List<Object>> set(List<Listing.Entry> entries) {
        Set<List<Object>> s = new HashSet<>();
        for (Listing.Entry e : entries) {
            if (!e.name().matches(".*;\\d+")) {
                s.add(List.of(e.name(), e.size().orElse(-1), e.encrypted()));
            }
        }
        return s;
    }

    private static Set<List<Object>> set(List<Expected> expected, int volume) {
        Set<List<Object>> s = new HashSet<>();
        for (Expected e : expected) {
            if (e.volume() == volume) {
                s.add(List.of(e.name(), e.size(), e.encrypted()));
            }
        }
        return s;
    }

    /** The entries of an .exp file, block by block. */
    static List<Expected> expected(Path exp) throws Exception {
        String text = Files.readString(exp, StandardCharsets.UTF_8);
        List<Expected> out = new ArrayList<>();
        Matcher m = ENTRY.matcher(text);
        List<int[]> starts = new ArrayList<>();
        while (m.find()) {
            starts.add(new int[] {m.start(), m.end()});
        }
        for (int i = 0; i < starts.size(); i++) {
            int end = i + 1 < starts.size() ? starts.get(i + 1)[0] : text.length();
            String block = text.substring(starts.get(i)[0], end);
            String kind = block.substring(block.indexOf("is=") + 3, block.indexOf("is=") + 6);
            Matcher v = VOL.matcher(block);
            assertThat(v.find()).as(block).isTrue();
            Matcher n = Pattern.compile("(?m)^  name=(.*)$").matcher(block);
            assertThat(n.find()).as(block).isTrue();
            String name = n.group(1);
            while (name.endsWith("/")) {
                name = name.substring(0, name.length() - 1);
            }
            boolean encrypted = block.contains("PASSWORD") || block.contains("\n  algo=");
            out.add(new Expected(
                    name,
                    Long.parseLong(v.group(1)),
                    kind.charAt(1) == 'D',
                    kind.charAt(2) == 'L',
                    encrypted,
                    Integer.parseInt(v.group(2))));
        }
        return out;
    }
}
