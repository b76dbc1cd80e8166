package headway.index;

import static headway.index.ReleaseTextCleaner.looksLikeRelease;
import static headway.index.ReleaseTextCleaner.preferFileName;

import headway.index.FileNameReader.FileName;
import headway.index.SubjectScan.Counter;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a binary post's subject as posters write it: the file name (quoted, doubled or empty quotes
 * with the name in a {@code [PRiVATE]-[WtFnZb]-[name]} wrapper, or unquoted), the file counter
 * ({@code [x/y]}, {@code (x/y)}, {@code x of y}, {@code File x of y}, {@code (x|y)}, {@code [x~y]},
 * {@code <<x/y>>}, a bare {@code x/y}), the article counter ({@code yEnc (k/N)}, glued, doubled,
 * zero-padded, before Nyuu's byte count) and the poster's release text with adverts, network tags,
 * request ids, credits and remarks dropped; an uploader's tag before a file that reads like a name
 * gives way to the file. Its rules are general, not per form: they were checked on a second corpus
 * from other sources (subjects-holdout.tsv in the tests). It is a hand-written scanner: every step walks the subject a bounded number of times and
 * nothing backtracks, so a parse costs time linear in the subject's length whatever the subject is
 * (the caller bounds the length, see {@link #MAX_LENGTH}). The trade-off is that the forms are in
 * code, not data: a form it does not know is added here, or by an operator's rule set in front of it.
 *
 * <p>The steps are classes of their own: {@link SubjectScan} lexes the subject (counters, yEnc,
 * quotes, brackets, the tail), {@link FileNameReader} finds the file name, {@link ReleaseText}
 * reads the release text around it, whose units {@link ReleaseTextFilter} judges and {@link
 * ReleaseTextCleaner} cleans, and {@link ReleaseTextTrim} trims last (banners, credits, glued tags,
 * base64); the words they know are data, in {@code subject-words.txt}
 * ({@link SubjectWords}). This class picks the counters and puts the answer together.
 */
public final class SubjectParser {

    /**
     * Longer subjects are not parsed, because no posting tool writes one (a header line is at most
     * 998 characters by RFC 5322, yEnc's draft asks for subjects under 256) and a bound keeps the
     * worst header's cost, and the memo's keys, small.
     */
    public static final int MAX_LENGTH = 1000;

    /**
     * How far from the file name release text is looked for, because no poster writes a release
     * name longer, and the units of text cost the most time of a parse.
     */
    static final int RELEASE_WINDOW = 300;

    /** The name under which the parser's matches are reported. */
    public static final String RULE_NAME = "parser";

    /**
     * What one subject holds. Counters that are absent are -1, never a made-up 1; {@code partStart}
     * .. {@code totalEnd} are the offsets of the article counter's digits in the subject as parsed
     * (stripped), -1 when there is none or when the subject was rewritten before the scan (an
     * HTML-escaped quote such as {@code &quot;} or nZEDb's {@code #34;}), so that the caller can
     * memoize by the rest of the subject.
     */
    public record Parsed(
            String file,
            String release,
            int part,
            int total,
            int fileNumber,
            int fileTotal,
            int partStart,
            int partEnd,
            int totalStart,
            int totalEnd) {

        ParsedSubject subject() {
            return new ParsedSubject(release, file, part, total, fileNumber, fileTotal);
        }
    }

    private SubjectParser() {}

    /** The parse of {@code subject} (stripped by the caller), or null when it names no file: not a binary post. */
    public static Parsed parse(String subject) {
        if (subject == null || subject.isEmpty() || subject.length() > MAX_LENGTH) {
            return null;
        }
        String s = subject;
        if (s.indexOf('#') >= 0 || s.indexOf('&') >= 0) {
            s = s.replace("&quot;", "\"").replace("&#34;", "\"").replace("#34;", "\"");
        }
        Parsed parsed = read(s);
        if (parsed != null && s.length() != subject.length()) {
            return new Parsed(
                    parsed.file(),
                    parsed.release(),
                    parsed.part(),
                    parsed.total(),
                    parsed.fileNumber(),
                    parsed.fileTotal(),
                    -1,
                    -1,
                    -1,
                    -1);
        }
        return parsed;
    }

    /** Reads the subject {@code s} (at most {@link #MAX_LENGTH} characters), or null when it names no file. */
    private static Parsed read(String s) {
        SubjectScan scan = new SubjectScan(s);
        scan.lex();
        int tailStart = scan.tail();
        FileNameReader names = new FileNameReader(scan);
        int[] wtf = new int[2];
        FileName file = names.wtfnzb(wtf);
        boolean wrapped = file != null;
        if (file == null) {
            file = names.quoted(true);
        }
        if (file == null) {
            file = names.unquoted(tailStart);
        }
        if (file == null) {
            file = names.quoted(false);
        }
        if (file == null) {
            file = names.beforeYenc();
        }
        if (file == null || file.name().isEmpty()) {
            return null;
        }
        int yTail = -1;
        for (int i = scan.yencs.size() - 1; i >= 0; i--) {
            if (scan.yencs.get(i)[0] >= tailStart) {
                yTail = i;
                break;
            }
        }
        Counter article = null;
        Counter fileCounter = null;
        List<Counter> before = new ArrayList<>();
        List<Counter> after = new ArrayList<>();
        List<Counter> afterYenc = new ArrayList<>();
        for (Counter c : scan.counters) {
            if (c.start() >= file.start() && c.end() <= file.end()) {
                continue;
            }
            if (yTail >= 0 && c.start() >= scan.yencs.get(yTail)[1]) {
                afterYenc.add(c);
            } else if (c.end() <= file.start()) {
                before.add(c);
            } else if (c.start() >= file.end()) {
                after.add(c);
            }
        }
        if (!afterYenc.isEmpty()) {
            article = afterYenc.get(afterYenc.size() - 1);
        } else if (yTail < 0 || !before.isEmpty() || wrapped) {
            for (Counter c : after) {
                if (c.start() >= tailStart && !c.of()) {
                    article = c;
                }
            }
        }
        if (wrapped) {
            fileCounter = null;
        } else if (!before.isEmpty()) {
            fileCounter = before.get(before.size() - 1);
        } else {
            for (Counter c : after) {
                if (!c.equals(article)) {
                    fileCounter = c;
                    break;
                }
            }
        }
        boolean atTail = scan.skipSpaces(file.end()) >= tailStart;
        boolean binary = wrapped
                || !scan.yencs.isEmpty()
                || !scan.counters.isEmpty()
                || (file.quoted() && file.fileLike() && atTail)
                // one volume of a set, quoted or ending the subject, with its counters cut off (as
                // indexers store subjects) or never written: nothing but a binary post names one
                || (file.fileLike() && (file.quoted() || atTail) && ReleaseNames.isVolume(file.name()));
        if (!binary) {
            return null;
        }
        String release;
        if (wrapped) {
            release = "";
        } else {
            ReleaseText text = new ReleaseText(
                    scan,
                    fileCounter,
                    file.name(),
                    Math.max(0, file.start() - RELEASE_WINDOW),
                    file.end() + RELEASE_WINDOW);
            release = text.read(Math.max(0, file.start() - RELEASE_WINDOW), file.start());
            if (release.isEmpty()) {
                String afterText =
                        text.read(file.end(), Math.max(file.end(), Math.min(tailStart, file.end() + RELEASE_WINDOW)));
                if (looksLikeRelease(afterText)) {
                    release = afterText;
                }
            }
            if (!release.isEmpty() && ReleaseNames.hasKnownExtension(release)) {
                release = ReleaseNames.fromFileName(release);
            }
            if (preferFileName(release, file.name())) {
                release = "";
            }
        }
        if (release.isEmpty()) {
            release = ReleaseNames.fromFileName(file.name());
        }
        release = ReleaseTextTrim.trim(release);
        int fileNo = -1;
        int files = -1;
        if (wrapped) {
            fileNo = wtf[0];
            files = wtf[1];
        } else if (fileCounter != null) {
            fileNo = fileCounter.a();
            files = fileCounter.b();
        }
        if (article == null) {
            return new Parsed(file.name(), release, -1, -1, fileNo, files, -1, -1, -1, -1);
        }
        return new Parsed(
                file.name(),
                release,
                article.a(),
                article.b(),
                fileNo,
                files,
                article.aStart(),
                article.aEnd(),
                article.bStart(),
                article.bEnd());
    }

    /** Whether {@code name} ends in an extension ({@code .mkv}, {@code .part01.rar}, {@code .001} when {@code numeric}). */
    static boolean hasExtension(String name, boolean numeric) {
        return hasExtension(name, 0, name.length(), numeric);
    }

    /** Whether {@code s[from, to)} ends in an extension; looks at its last six characters only. */
    static boolean hasExtension(String s, int from, int to, boolean numeric) {
        int dot = -1;
        for (int i = to - 1; i >= Math.max(from, to - 6); i--) {
            if (s.charAt(i) == '.') {
                dot = i;
                break;
            }
        }
        if (dot < 0 || dot == to - 1) {
            return false;
        }
        return ReleaseNames.isExtension(s.substring(dot + 1, to), numeric);
    }

    static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }
}
