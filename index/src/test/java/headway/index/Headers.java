package headway.index;

import headway.overview.OverviewLine;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/** Synthetic overview streams for tests. */
final class Headers {

    static final String DATE = "Wed, 02 Dec 2026 17:17:02 +0000";

    private Headers() {}

    static OverviewLine line(long article, String subject, String poster, String messageId) {
        return line(article, subject, poster, messageId, DATE);
    }

    static OverviewLine line(long article, String subject, String poster, String messageId, String date) {
        return new OverviewLine(article, subject, poster, date, "<" + messageId + ">", "", 700_000, 5400, "");
    }

    /**
     * {@code posts} releases of {@code files} files of {@code parts} parts each, interleaved at random
     * with chatter, repeated parts and some parts dropped, numbered from article {@code first}.
     */
    static List<OverviewLine> stream(long seed, int posts, int files, int parts, long first) {
        Random random = new Random(seed);
        List<String[]> items = new ArrayList<>();
        for (int r = 0; r < posts; r++) {
            String poster = "poster" + (r % 7) + " <p" + (r % 7) + "@example.com>";
            for (int f = 1; f <= files; f++) {
                for (int p = 1; p <= parts; p++) {
                    if (random.nextInt(40) == 0) {
                        continue;
                    }
                    String subject = "Release." + r + " - [" + f + "/" + files + "] - \"release." + r + ".part" + f
                            + ".rar\" yEnc (" + p + "/" + parts + ")";
                    items.add(new String[] {subject, poster, "r" + r + "f" + f + "p" + p + "@news.example"});
                    if (random.nextInt(30) == 0) {
                        items.add(new String[] {subject, poster, "r" + r + "f" + f + "p" + p + "-again@news.example"});
                    }
                }
            }
            items.add(new String[] {"Re: where is release " + r, "chatter <c@example.com>", "chat" + r + "@news.example"
            });
        }
        List<OverviewLine> out = new ArrayList<>();
        long article = first;
        for (String[] item : interleave(items, random)) {
            article += 1 + random.nextInt(3);
            out.add(line(article, item[0], item[1], item[2]));
        }
        return out;
    }

    private static List<String[]> interleave(List<String[]> sorted, Random random) {
        List<String[]> out = new ArrayList<>(sorted);
        for (int i = 0; i < out.size(); i++) {
            int j = Math.min(out.size() - 1, i + random.nextInt(20));
            Collections.swap(out, i, j);
        }
        return out;
    }
}
