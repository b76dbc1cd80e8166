/**
 * The worker process: it migrates the schema, joins the node registry and heartbeats its row,
 * registers the workflows and activities with Temporal on the shared task queue and on a task
 * queue of its own (where the windows of the groups it holds live), and serves metrics. Its
 * configuration is one record, read once in main and validated in its constructor.
 */
package headway.worker;
