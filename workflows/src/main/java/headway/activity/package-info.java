/**
 * The contract between workflows and activities: activity interfaces and the records they pass.
 * Lease activities run on the shared task queue; everything a holder does with the group's window
 * runs on the holder's own task queue (named in the {@link headway.activity.HolderToken}), so the
 * window stays in the memory of the worker that holds the group. Every holder call names its
 * epoch, and the store refuses a stale one with a {@code LeaseLost} failure.
 */
package headway.activity;
