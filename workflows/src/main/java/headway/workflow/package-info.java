/**
 * Workflow code: one long-lived workflow per group ({@code group/<name>}), which leases the group
 * on the shared task queue and then drives the holder's activities on that holder's own task
 * queue, where the group's window lives in memory. PostgreSQL decides who holds a group and fences
 * stale holders by epoch; the workflow only reacts: a lost lease, a lost window or a silent holder
 * (schedule-to-start and heartbeat timeouts of one lease TTL) sends it back to leasing, and too
 * many fruitless cycles in a row park it. The trade-off: a dead worker costs each of its groups
 * one lease TTL, and the redo from the last snapshot, before another worker takes over. This
 * module depends on temporal-sdk alone, so workflow code cannot reach JDBC, clocks or IO.
 */
package headway.workflow;
