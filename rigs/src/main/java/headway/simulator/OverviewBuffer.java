package headway.simulator;

import java.util.Arrays;

/**
 * A growable byte buffer with the few appenders the overview renderer needs: lines are rendered
 * straight into it and written to the socket in large chunks, which is what makes serving fast;
 * the cost is hand-written number and date formatting instead of String formatting.
 */
final class OverviewBuffer {
    byte[] a;
    int len;

    OverviewBuffer(int cap) {
        a = new byte[cap];
    }

    private void ensure(int extra) {
        if (len + extra > a.length) {
            a = Arrays.copyOf(a, Math.max(a.length * 2, len + extra));
        }
    }

    OverviewBuffer put(byte x) {
        ensure(1);
        a[len++] = x;
        return this;
    }

    OverviewBuffer tab() {
        return put((byte) '\t');
    }

    OverviewBuffer crlf() {
        ensure(2);
        a[len++] = '\r';
        a[len++] = '\n';
        return this;
    }

    OverviewBuffer bytes(byte[] x) {
        ensure(x.length);
        System.arraycopy(x, 0, a, len, x.length);
        len += x.length;
        return this;
    }

    /** Appends lines (CR LF ends) dot-stuffed: a line that starts with a dot gets a second one, RFC 3977 3.1.1. */
    OverviewBuffer stuffed(byte[] lines) {
        int dots = 0;
        boolean lineStart = true;
        for (byte x : lines) {
            dots += lineStart && x == '.' ? 1 : 0;
            lineStart = x == '\n';
        }
        ensure(lines.length + dots);
        lineStart = true;
        for (byte x : lines) {
            if (lineStart && x == '.') {
                a[len++] = '.';
            }
            a[len++] = x;
            lineStart = x == '\n';
        }
        return this;
    }

    OverviewBuffer ascii(String s) {
        int n = s.length();
        ensure(n + 1);
        if (n > 0 && s.charAt(0) == '.' && n > 1) {
            a[len++] = '.';
        }
        for (int i = 0; i < n; i++) {
            a[len++] = (byte) s.charAt(i);
        }
        return this;
    }

    OverviewBuffer two(int v) {
        ensure(2);
        a[len++] = (byte) ('0' + v / 10);
        a[len++] = (byte) ('0' + v % 10);
        return this;
    }

    OverviewBuffer num(long v) {
        ensure(20);
        if (v == 0) {
            a[len++] = '0';
            return this;
        }
        int start = len;
        while (v > 0) {
            a[len++] = (byte) ('0' + v % 10);
            v /= 10;
        }
        for (int i = start, j = len - 1; i < j; i++, j--) {
            byte t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return this;
    }
}
