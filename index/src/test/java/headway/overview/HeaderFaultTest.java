package headway.overview;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HeaderFaultTest {

    @Test
    void whatOneHeaderMayBreakIsSurvivableAndTheJvmsFailuresAreNot() {
        assertThat(HeaderFault.survivable(new ArrayIndexOutOfBoundsException(3)))
                .isTrue();
        assertThat(HeaderFault.survivable(new NumberFormatException("x"))).isTrue();
        assertThat(HeaderFault.survivable(new StackOverflowError())).isTrue();
        assertThat(HeaderFault.survivable(new AssertionError("x"))).isTrue();
        assertThat(HeaderFault.survivable(new OutOfMemoryError("test"))).isFalse();
        assertThat(HeaderFault.survivable(new InternalError("test"))).isFalse();
        assertThat(HeaderFault.survivable(new NoClassDefFoundError("test"))).isFalse();
    }

    @Test
    void aReasonNamesTheFailureWhereItWasThrownAndABoundedMessage() {
        RuntimeException e;
        try {
            throw new AssertionError("substring(5) of a 3-character string gave '" + "abc".substring(5) + "'");
        } catch (StringIndexOutOfBoundsException thrown) {
            e = thrown;
        }
        String reason = HeaderFault.reason("the rules", e);
        assertThat(reason)
                .startsWith("the rules failed: StringIndexOutOfBoundsException at headway.overview.HeaderFaultTest.")
                .contains("(HeaderFaultTest.java:")
                .endsWith("begin 5, end 3, length 3");

        String quoted = "\uD83D\uDE00".repeat(HeaderFault.MESSAGE_CHARS);
        String bounded = HeaderFault.reason("x", new NumberFormatException(quoted));
        assertThat(bounded).endsWith(": " + "\uD83D\uDE00".repeat(HeaderFault.MESSAGE_CHARS / 2));
        String odd = "x" + quoted;
        assertThat(HeaderFault.reason("x", new NumberFormatException(odd)))
                .endsWith(": x" + "\uD83D\uDE00".repeat(HeaderFault.MESSAGE_CHARS / 2 - 1));
        assertThat(HeaderFault.reason("x", new NullPointerException())).doesNotEndWith(": ");
    }
}
