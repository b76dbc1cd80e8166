package headway.index;

import headway.category.Obfuscation;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The obfuscated posts a window is reading, so that the files of one post make one release although
 * every file has a random name of its own and no token is shared (`[01/07] - "a3f9c0…e1" yEnc
 * (1/3)`, `[02/07] - "77b1…0c" yEnc (1/5)`). What ties them is what the poster could not hide: the
 * same poster, the same file total in the {@code [nn/NN]} counters, files posted together, each
 * file number once. A post is keyed by poster and file total; a file joins the open post of its
 * key when its file number is not in it yet and it comes at most {@code gap} articles after the
 * post's last file, and otherwise starts a new post, so two posts of one poster posted back to back
 * (both numbered 1 to 7) stay two. A post is named by the name of its first file (the release text
 * the parser gave it, a random token), which every later file takes as its release.
 *
 * <p>Only files whose own release name looks obfuscated and that carry a file counter of a
 * post of two or more files are grouped here: a readable name groups by itself, and a file
 * without a counter says nothing about its post. Limits: two posts of one poster with the same file
 * total posted interleaved are told apart only where their file numbers meet, and a file posted
 * twice in one post starts a new one. Evidence from inside the files may join or split posts later.
 *
 * <p>Deterministic in the order headers are fed (article order), and carried whole in the window's
 * snapshot ({@link WindowCodec}), so a holder that takes over names the rest of a post as the old
 * holder would have, and a redo names it the same. Bounded: at most {@value #MAX_POSTS} posts are
 * remembered (the least recently fed go first), and a post's file numbers are as many as the files
 * it was fed.
 */
final class Posts {

    /** Posts remembered at once: far more than the posters active within a window's reach. */
    static final int MAX_POSTS = 10_000;

    /** A post's key: who posted it and how many files it said it has. */
    record Key(String poster, int fileTotal) {}

    /** One post: its name, the file numbers it has, and the article of its last file. */
    static final class Post {
        final String name;
        private int[] files;
        private int count;
        long lastArticle;

        Post(String name, int[] files, long lastArticle) {
            this.name = name;
            this.files = Arrays.copyOf(files, Math.max(4, files.length));
            this.count = files.length;
            Arrays.sort(this.files, 0, count);
            this.lastArticle = lastArticle;
        }

        boolean has(int file) {
            return Arrays.binarySearch(files, 0, count, file) >= 0;
        }

        void add(int file) {
            int at = Arrays.binarySearch(files, 0, count, file);
            if (at >= 0) {
                return;
            }
            at = -at - 1;
            if (count == files.length) {
                files = Arrays.copyOf(files, count * 2);
            }
            System.arraycopy(files, at, files, at + 1, count - at);
            files[at] = file;
            count++;
        }

        /** The file numbers fed, in order. */
        int[] files() {
            return Arrays.copyOf(files, count);
        }
    }

    private final long gap;
    private final LinkedHashMap<Key, Post> posts = new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Post> eldest) {
            return size() > MAX_POSTS;
        }
    };

    /** Posts whose files come at most {@code gap} articles apart. */
    Posts(long gap) {
        if (gap <= 0) {
            throw new IllegalArgumentException("gap must be positive, e.g. the window's maximum age; got " + gap);
        }
        this.gap = gap;
    }

    /**
     * Whether a file's release name looks obfuscated: random itself, or random before a short
     * extension of random letters ({@code 0f25…b888.w95}), which obfuscating posters add so that a
     * name does not even show its type.
     */
    static boolean obfuscated(String release) {
        if (Obfuscation.looksHashed(release)) {
            return true;
        }
        int dot = release.lastIndexOf('.');
        return dot > 0 && release.length() - dot <= 5 && Obfuscation.looksHashed(release.substring(0, dot));
    }

    /** Whether a file of this release name and counter is grouped by its post: obfuscated, numbered, of a post of several files. */
    static boolean groups(boolean obfuscated, int fileNumber, int fileTotal) {
        return obfuscated && fileTotal > 1 && fileNumber >= 0 && fileNumber <= fileTotal;
    }

    /**
     * The release of a new file {@code fileNumber} of {@code key}'s post at {@code article}, whose
     * own name is {@code name}: the open post's name when the file joins it, else {@code name},
     * which starts a new post. Only for a file {@link #groups} says is grouped, once per file (when
     * its binary opens).
     */
    String release(Key key, int fileNumber, String name, long article) {
        Post post = posts.get(key);
        if (post != null && !post.has(fileNumber) && article - post.lastArticle <= gap) {
            post.add(fileNumber);
            post.lastArticle = Math.max(post.lastArticle, article);
            return post.name;
        }
        posts.put(key, new Post(name, new int[] {fileNumber}, article));
        return name;
    }

    /** The posts, least recently fed first, for {@link WindowCodec}. */
    Collection<Map.Entry<Key, Post>> all() {
        return posts.entrySet();
    }

    /** Adds a post read back from a snapshot, after those read before it. */
    void restore(Key key, Post post) {
        posts.put(key, post);
    }

    int size() {
        return posts.size();
    }
}
