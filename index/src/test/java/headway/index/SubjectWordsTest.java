package headway.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The parser's word lists come from {@code subject-words.txt}: the shipped file holds every list,
 * and a missing, cut or garbled file fails loudly when the class loads, never leaves a list short.
 */
class SubjectWordsTest {

    private static final String CLASS = "headway.index.SubjectWords";

    private static byte[] shipped() {
        try (InputStream in = SubjectWords.class.getResourceAsStream(SubjectWords.RESOURCE)) {
            assertThat(in).as("the shipped word file").isNotNull();
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void shippedFileHoldsEveryListInOrder() {
        Map<String, List<String>> lists = SubjectWords.read(new ByteArrayInputStream(shipped()));
        assertThat(lists.keySet()).containsExactlyElementsOf(SubjectWords.SECTIONS);
        assertThat(SubjectWords.CREDIT_WORDS)
                .containsExactly("presents", "praesentiert", "pr\u00e4sentiert", "presenteren", "postet", "uppt");
        assertThat(SubjectWords.TAGS).contains("pc game", "no pw", "nzb only").hasSize(73);
        assertThat(SubjectWords.REQUEST_WORDS).contains("req#", "attn:");
        assertThat(SubjectWords.DOMAIN_SET).contains(".com", ".vc").hasSize(61);
        assertThat(SubjectWords.LANGUAGES).allMatch(SubjectWords.TAGS::contains);
    }

    @Test
    void missingFileFailsClassInit() {
        assertThatThrownBy(() -> loadWith(null))
                .isInstanceOf(ExceptionInInitializerError.class)
                .cause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("headway/index/subject-words.txt is missing from the class path");
    }

    @Test
    void garbledFileFailsClassInit() {
        byte[] garbled = shipped().clone();
        garbled[garbled.length / 2] = (byte) 0xC3; // a UTF-8 lead byte before ASCII: malformed
        garbled[garbled.length / 2 + 1] = (byte) 0x28;
        assertThatThrownBy(() -> loadWith(garbled))
                .isInstanceOf(ExceptionInInitializerError.class)
                .cause()
                .hasMessageContaining("subject-words.txt is not UTF-8");
    }

    @Test
    void cutFileFailsClassInit() {
        byte[] whole = shipped();
        byte[] half = Arrays.copyOf(whole, whole.length / 2);
        assertThatThrownBy(() -> loadWith(half))
                .isInstanceOf(ExceptionInInitializerError.class)
                .cause()
                .hasMessageContaining("does not end with [end]");
    }

    @Test
    void shippedFileLoadsInAFreshLoader() throws Exception {
        Class<?> words = loadWith(shipped());
        assertThat(words.getDeclaredField("UNITS").getModifiers()).isNotZero();
        assertThat(words.getClassLoader()).isNotSameAs(SubjectWords.class.getClassLoader());
    }

    /** Every way to cut the file short before its end marker fails, wherever the cut falls (in a word, a line, a character). */
    @Test
    void everyCutFails() {
        byte[] whole = shipped();
        String text = new String(whole, StandardCharsets.UTF_8);
        int end = text.getBytes(StandardCharsets.UTF_8).length - "[end]\n".length();
        for (int len = 0; len < end + "[end".length(); len++) {
            byte[] cut = Arrays.copyOf(whole, len);
            assertThatThrownBy(() -> SubjectWords.read(new ByteArrayInputStream(cut)))
                    .as("the first %d bytes", len)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("subject-words.txt");
        }
    }

    /** Random bytes (seeded) never read as a word file. */
    @Test
    void randomBytesFail() {
        long seed = 20261207L;
        Random random = new Random(seed);
        for (int i = 0; i < 2_000; i++) {
            byte[] noise = new byte[random.nextInt(600)];
            random.nextBytes(noise);
            assertThatThrownBy(() -> SubjectWords.read(new ByteArrayInputStream(noise)))
                    .as("seed %d, case %d", seed, i)
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void garbledListsNameTheirFault() {
        String good = new String(shipped(), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> SubjectWords.parse("word\n" + good)).hasMessageContaining("before the first section");
        assertThatThrownBy(() -> SubjectWords.parse(good.replace("[tags]", "[tag]")))
                .hasMessageContaining("unknown section [tag]");
        assertThatThrownBy(() -> SubjectWords.parse(good.replace("[units]", "[tags]")))
                .hasMessageContaining("section [tags] twice");
        assertThatThrownBy(() -> SubjectWords.parse(good.replace("\nrepost\n", "\nRepost\n")))
                .hasMessageContaining("not in lower case");
        assertThatThrownBy(() -> SubjectWords.parse(good.replace("\nrepost\n", "\nfull\n")))
                .hasMessageContaining("'full' twice in section [tags]");
        assertThatThrownBy(() -> SubjectWords.parse(good.replace("\nuppt\n", "\nxuppt\n")))
                .hasMessageContaining("credit word 'xuppt'");
        assertThatThrownBy(() -> SubjectWords.parse(good.replace("\nrepost\n", "\nre\u0000post\n")))
                .hasMessageContaining("control character");
        assertThatThrownBy(() -> SubjectWords.parse(good + "more\n")).hasMessageContaining("text after [end]");
        String noLanguages = good.replaceAll("(?s)\\[languages\\].*?\n\n", "[languages]\n\n");
        assertThatThrownBy(() -> SubjectWords.parse(noLanguages))
                .hasMessageContaining("no words in section [languages]");
    }

    /** Loads and initialises a fresh copy of {@code SubjectWords} whose word file is {@code words} (null: missing). */
    private static Class<?> loadWith(byte[] words) throws ClassNotFoundException {
        return Class.forName(CLASS, true, new OneFile(SubjectWords.class.getClassLoader(), words));
    }

    /** Defines its own {@code SubjectWords} and serves {@code words} as its word file; everything else comes from the parent. */
    private static final class OneFile extends ClassLoader {
        private final byte[] words;

        OneFile(ClassLoader parent, byte[] words) {
            super(parent);
            this.words = words;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(CLASS)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                        byte[] b = in.readAllBytes();
                        c = defineClass(name, b, 0, b.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                return c;
            }
        }

        @Override
        public InputStream getResourceAsStream(String name) {
            if (name.endsWith("/" + SubjectWords.RESOURCE)) {
                return words == null ? null : new ByteArrayInputStream(words);
            }
            return super.getResourceAsStream(name);
        }
    }
}
