package headway.activity;

/** The next range to index, or null when the group is caught up; {@code lag} is articles left in planned and leased ranges. */
public record NextRange(RangeLease range, long lag) {

    public boolean caughtUp() {
        return range == null;
    }
}
