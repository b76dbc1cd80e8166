/**
 * The watchman: stuck detection and node presence, run by the {@code headway-watchman} Schedule.
 * A move is a piece of work that should make progress (a leased range whose cursor should
 * advance, an active group whose lag should shrink); a move that has not moved for longer than
 * its bound gets one open stuck record, which is closed (never deleted) when the move moves.
 * Presence records when each registered node went online or offline.
 *
 * <p>Every scan rebuilds its view from the coordination tables and keeps nothing in memory, so
 * a restart loses nothing, and two scans at once (the schedule allows overlap) only repeat each
 * other's idempotent writes: a partial unique index keeps one open record per move. The cost is
 * a read of the leased ranges, the active groups and the node registry on every scan, and a
 * group's progress is dated to the scan that saw it, so a group is reported up to one scan
 * interval late. The watchman reads the store's tables but writes only its own (stuck_moves,
 * presence, range_progress, group_progress).
 */
package headway.watchman;
