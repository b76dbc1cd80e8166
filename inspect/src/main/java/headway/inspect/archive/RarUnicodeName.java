package headway.inspect.archive;

/**
 * RAR 3.x/4.x's packed Unicode names: after the name in the archiver's code page and a NUL, a high
 * byte and then groups of four 2-bit opcodes (a flags byte each): 0 a char from the next byte,
 * 1 the next byte plus the high byte as its upper half, 2 a char from the next two bytes, 3 a run
 * copied from the code-page name (its bytes as chars, or with a correction byte added and the high
 * byte above). A name that reads past its bytes falls back to the code-page name, as rarfile does.
 *
 * <p>Bounds: each opcode consumes at least one byte, so the loop ends within the name's bytes; a
 * char comes from an encoded byte or a code-page byte, so the output is at most as long as the
 * name's bytes, and stops at {@link Names#MAX_CHARS}.
 */
final class RarUnicodeName {

    private final byte[] b;
    private final int std;
    private final int stdEnd;
    private final int encEnd;
    private int enc;
    private final char[] out;
    private int n;
    private boolean failed;

    private RarUnicodeName(byte[] b, int std, int nul, int end) {
        this.b = b;
        this.std = std;
        this.stdEnd = nul;
        this.enc = nul + 1;
        this.encEnd = end;
        this.out = new char[Math.min(Names.MAX_CHARS, end - std)];
    }

    /** Decodes the name whose code-page part is {@code [from, nul)} and packed part {@code (nul, end)}. */
    static String decode(byte[] b, int from, int nul, int end) {
        RarUnicodeName d = new RarUnicodeName(b, from, nul, end);
        d.run();
        if (d.failed) {
            return Names.utf8OrCp437(b, from, nul - from);
        }
        return Names.clean(new String(d.out, 0, d.n));
    }

    private void run() {
        int high = next();
        int flags = 0;
        int bits = 0;
        while (enc < encEnd && n < out.length && !failed) {
            if (bits == 0) {
                flags = next();
                bits = 8;
            }
            bits -= 2;
            switch (flags >> bits & 3) {
                case 0 -> put(next());
                case 1 -> put(next() | high << 8);
                case 2 -> {
                    int lo = next();
                    put(lo | next() << 8);
                }
                default -> run(high);
            }
        }
    }

    private void run(int high) {
        int length = next();
        if ((length & 0x80) != 0) {
            int correction = next();
            for (int i = (length & 0x7F) + 2; i > 0 && n < out.length && !failed; i--) {
                put(((stdByte() + correction) & 0xFF) | high << 8);
            }
        } else {
            for (int i = length + 2; i > 0 && n < out.length && !failed; i--) {
                put(stdByte());
            }
        }
    }

    private int next() {
        if (enc >= encEnd) {
            failed = true;
            return 0;
        }
        return b[enc++] & 0xFF;
    }

    private int stdByte() {
        if (std + n >= stdEnd) {
            failed = true;
            return '?';
        }
        return b[std + n] & 0xFF;
    }

    private void put(int c) {
        out[n++] = (char) c;
    }
}
