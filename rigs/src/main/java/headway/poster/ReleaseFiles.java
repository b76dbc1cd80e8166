package headway.poster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;

/** Makes a release's real files in a directory with the real tools. */
final class ReleaseFiles {

    /** What a release's archive lists and the files it is posted as. */
    record Built(
            List<PostedRelease.Role> roles,
            List<String> names,
            List<byte[]> data,
            List<String> innerNames,
            boolean headersEncrypted,
            String archivePassword) {}

    /** A set of rarfile's test volumes: file names in order, the names they list, whether headers are encrypted. */
    private record RarSet(List<String> volumes, List<String> inner, boolean headersEncrypted) {}

    private static final List<RarSet> PLAIN_RAR = List.of(
            new RarSet(
                    List.of("rar3-vols.part1.rar", "rar3-vols.part2.rar", "rar3-vols.part3.rar"),
                    List.of("vols/bigfile.txt", "vols/smallfile.txt"),
                    false),
            new RarSet(
                    List.of("rar5-vols.part1.rar", "rar5-vols.part2.rar", "rar5-vols.part3.rar"),
                    List.of("vols/bigfile.txt", "vols/smallfile.txt"),
                    false));
    private static final RarSet ENTRIES_RAR =
            new RarSet(List.of("rar5-psw.rar"), List.of("stest1.txt", "stest2.txt"), false);
    private static final RarSet HEADERS_RAR = new RarSet(List.of("rar5-hpsw.rar"), List.of(), true);
    /** Every file gets this time, so what the tools store of it does not vary run to run. */
    private static final FileTime MTIME = FileTime.fromMillis(1_780_000_000_000L);

    private ReleaseFiles() {}

    static Built build(ReleaseSpec spec, Random r, ReleaseTools tools, Path dir) throws IOException {
        List<PostedRelease.Role> roles = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> inner = new ArrayList<>();
        boolean headersEncrypted = false;
        String password = null;
        String payloadName = spec.name() + ".mkv";
        byte[] payload = new byte[spec.payloadBytes()];
        r.nextBytes(payload);
        switch (spec.container()) {
            case NONE -> {
                write(dir, payloadName, payload);
                roles.add(PostedRelease.Role.PAYLOAD);
                names.add(payloadName);
            }
            case SEVEN_ZIP -> {
                write(dir, payloadName, payload);
                List<String> cmd = new ArrayList<>(List.of(
                        tools.sevenZip().toString(),
                        "a",
                        "-t7z",
                        "-mx=0",
                        "-bd",
                        "-v" + (payload.length / 3 + 1) + "b"));
                if (spec.password() != ReleaseSpec.Password.NONE) {
                    password = hex(r, 12);
                    cmd.add("-p" + password);
                    cmd.add(spec.password() == ReleaseSpec.Password.HEADERS ? "-mhe=on" : "-mhe=off");
                }
                cmd.add(spec.name() + ".7z");
                cmd.add(payloadName);
                ReleaseTools.run(dir, cmd);
                Files.delete(dir.resolve(payloadName));
                for (String v : list(dir, spec.name() + ".7z.")) {
                    roles.add(PostedRelease.Role.ARCHIVE);
                    names.add(v);
                }
                headersEncrypted = spec.password() == ReleaseSpec.Password.HEADERS;
                if (!headersEncrypted) {
                    inner.add(payloadName);
                }
            }
            case RAR -> {
                RarSet set = switch (spec.password()) {
                    case NONE -> PLAIN_RAR.get(r.nextInt(PLAIN_RAR.size()));
                    case ENTRIES -> ENTRIES_RAR;
                    case HEADERS -> HEADERS_RAR;
                };
                for (int i = 0; i < set.volumes().size(); i++) {
                    String name =
                            set.volumes().size() == 1 ? spec.name() + ".rar" : spec.name() + ".part" + (i + 1) + ".rar";
                    write(
                            dir,
                            name,
                            Files.readAllBytes(
                                    tools.rarfileFiles().resolve(set.volumes().get(i))));
                    roles.add(PostedRelease.Role.ARCHIVE);
                    names.add(name);
                }
                inner.addAll(set.inner());
                headersEncrypted = set.headersEncrypted();
                if (spec.password() != ReleaseSpec.Password.NONE) {
                    password = "password";
                }
            }
        }
        if (spec.par2()) {
            long total = 0;
            for (String n : names) {
                total += Files.size(dir.resolve(n));
            }
            long block = Math.max(4096, (total / 40 + 3) / 4 * 4);
            List<String> cmd = new ArrayList<>(List.of(
                    tools.par2().toString(), "create", "-q", "-q", "-s" + block, "-r10", "-n1", spec.name() + ".par2"));
            cmd.addAll(names);
            ReleaseTools.run(dir, cmd);
            for (String p : list(dir, spec.name())) {
                if (p.endsWith(".par2")) {
                    roles.add(PostedRelease.Role.PAR2);
                    names.add(p);
                }
            }
        }
        if (spec.nfo()) {
            String name = spec.name() + ".nfo";
            write(dir, name, nfo(spec, r));
            roles.add(PostedRelease.Role.NFO);
            names.add(name);
        }
        List<byte[]> data = new ArrayList<>();
        for (String n : names) {
            data.add(Files.readAllBytes(dir.resolve(n)));
        }
        return new Built(roles, names, data, inner, headersEncrypted, password);
    }

    /** An NFO in CP437 with a frame of box-drawing bytes, the release name, and the IMDb link when there is one. */
    static byte[] nfo(ReleaseSpec spec, Random r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int width = spec.name().length() + 8;
        out.write(0xC9);
        for (int i = 0; i < width; i++) {
            out.write(0xCD);
        }
        out.writeBytes(new byte[] {(byte) 0xBB, '\r', '\n'});
        line(out, "", width);
        line(out, "    " + spec.name(), width);
        line(out, "", width);
        out.write(0xC8);
        for (int i = 0; i < width; i++) {
            out.write(0xCD);
        }
        out.writeBytes(new byte[] {(byte) 0xBC, '\r', '\n'});
        StringBuilder text = new StringBuilder("\r\n")
                .append(String.format(Locale.ROOT, " Size ......: %d bytes\r\n", spec.payloadBytes()))
                .append(String.format(
                        Locale.ROOT, " Date ......: 2026-%02d-%02d\r\n", 1 + r.nextInt(12), 1 + r.nextInt(28)));
        if (spec.imdbId() != null) {
            text.append(" IMDb ......: https://www.imdb.com/title/")
                    .append(spec.imdbId())
                    .append("/\r\n");
        }
        text.append("\r\n ")
                .append("\u2591\u2592\u2593 greetings to all friends \u2593\u2592\u2591")
                .append("\r\n");
        out.writeBytes(text.toString().getBytes(java.nio.charset.Charset.forName("IBM437")));
        return out.toByteArray();
    }

    private static void line(ByteArrayOutputStream out, String s, int width) {
        out.write(0xBA);
        out.writeBytes(String.format(Locale.ROOT, "%-" + width + "s", s).getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(new byte[] {(byte) 0xBA, '\r', '\n'});
    }

    private static void write(Path dir, String name, byte[] data) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, data);
        Files.setLastModifiedTime(p, MTIME);
    }

    /** The names of the files in {@code dir} that start with {@code prefix}, sorted. */
    private static List<String> list(Path dir, String prefix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(prefix))
                    .sorted(Comparator.naturalOrder())
                    .toList();
        }
    }

    static String hex(Random r, int bytes) {
        StringBuilder sb = new StringBuilder(bytes * 2);
        for (int i = 0; i < bytes; i++) {
            sb.append(String.format(Locale.ROOT, "%02x", r.nextInt(256)));
        }
        return sb.toString();
    }
}
