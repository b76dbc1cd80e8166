package headway.starter;

import headway.workflow.GroupConfig;
import headway.workflow.GroupRun;
import headway.workflow.GroupWorkflow;
import headway.workflow.SearchAttributes;
import headway.workflow.TaskQueues;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes.Builder;
import java.util.Map;

/**
 * Starts group workflows, idempotently: the id is {@code group/<name>} and a second start of a
 * running group attaches to the running workflow instead of starting another.
 */
public final class GroupStarter {

    private GroupStarter() {}

    /** Starts (or finds) the group's workflow; returns its run id. */
    public static String start(WorkflowClient client, GroupConfig config) {
        Builder attributes = io.temporal.common.SearchAttributes.newBuilder()
                .set(SearchAttributes.GROUP, config.group())
                .set(SearchAttributes.STATE, "STARTING");
        GroupWorkflow workflow = client.newWorkflowStub(
                GroupWorkflow.class,
                WorkflowOptions.newBuilder()
                        .setWorkflowId(TaskQueues.workflowId(config.group()))
                        .setTaskQueue(config.sharedTaskQueue())
                        .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING)
                        .setTypedSearchAttributes(attributes.build())
                        .setMemo(memo(config))
                        .setStaticSummary("Indexes " + config.group() + " in article order")
                        .build());
        return WorkflowClient.start(workflow::run, GroupRun.start(config)).getRunId();
    }

    /** The memo the workflow also keeps: its config, under "config", which the Web UI shows on the execution. */
    static Map<String, Object> memo(GroupConfig config) {
        return Map.of("config", config);
    }
}
