package headway.activity;

/** The group's window on this worker can no longer be trusted (or is gone); the group must be taken again from its snapshot. */
public final class WindowLostException extends RuntimeException {

    public WindowLostException(String group, long epoch, int binariesLost, Throwable cause) {
        super(
                "window of " + group + " (epoch " + epoch + ") lost: " + binariesLost
                        + " binaries left it but did not commit; the group is taken again from its snapshot",
                cause);
    }

    public WindowLostException(String group, long epoch) {
        super("this worker holds no window of " + group + " at epoch " + epoch
                + " (it restarted or released the group); the group is taken again from its snapshot");
    }
}
