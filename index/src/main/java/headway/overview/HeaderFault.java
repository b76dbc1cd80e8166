package headway.overview;

/**
 * The one rule for what a single article's header may break in the code that reads, classifies,
 * assembles or writes it while its group goes on: such a failure becomes that article's row in
 * the rejected-articles ledger, with a reason from {@link #reason}, instead of failing its batch.
 * Survivable are every RuntimeException (an index past an end, a number that does not parse, a
 * null) and the errors that leave the JVM sound: a StackOverflowError (its stack is unwound by the
 * time it is caught), an AssertionError. Not survivable, and so rethrown to end the holding cycle
 * as any failure of the worker does: OutOfMemoryError and the other VirtualMachineErrors, a
 * LinkageError (the deployment is broken, and every header would meet it), ThreadDeath. The
 * trade-off: a defect that fails on every header of a group (a broken rule set, say) fills the
 * ledger instead of stopping the group where an operator would see it; the ledger's count shows
 * in {@code status} and in the metric {@code headway.articles.rejected}.
 */
public final class HeaderFault {

    /** The characters of an exception's message kept in a reason: messages may quote the header. */
    static final int MESSAGE_CHARS = 200;

    private HeaderFault() {}

    /** Whether {@code t}, thrown for one header, is that header's to answer for (see the class comment). */
    public static boolean survivable(Throwable t) {
        if (t instanceof StackOverflowError) {
            return true;
        }
        return !(t instanceof VirtualMachineError || t instanceof LinkageError || t instanceof ThreadDeath);
    }

    /**
     * A bounded reason for the ledger: what failed ({@code step}), the exception's class, the first
     * frame of headway's code it came through, and the start of its message, e.g. {@code the rules
     * failed: ArrayIndexOutOfBoundsException at headway.index.RuleSet$Template.word(RuleSet.java:499):
     * Index 41 out of bounds for length 41}.
     */
    public static String reason(String step, Throwable t) {
        StringBuilder sb =
                new StringBuilder(step).append(" failed: ").append(t.getClass().getSimpleName());
        StackTraceElement[] trace = t.getStackTrace();
        StackTraceElement where = trace.length == 0 ? null : trace[0];
        for (StackTraceElement e : trace) {
            if (e.getClassName().startsWith("headway.")) {
                where = e;
                break;
            }
        }
        if (where != null) {
            sb.append(" at ")
                    .append(where.getClassName())
                    .append('.')
                    .append(where.getMethodName())
                    .append('(')
                    .append(where.getFileName())
                    .append(':')
                    .append(where.getLineNumber())
                    .append(')');
        }
        String message = t.getMessage();
        if (message != null && !message.isEmpty()) {
            sb.append(": ").append(HeaderText.cut(message, MESSAGE_CHARS));
        }
        return sb.toString();
    }
}
