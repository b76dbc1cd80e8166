package headway.starter;

import headway.workflow.GroupWorkflow;
import headway.workflow.TaskQueues;
import io.temporal.client.WorkflowNotFoundException;
import java.util.List;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code headway pause|resume|drain GROUP...}: signals to running group workflows. */
final class SignalCommands {

    private SignalCommands() {}

    abstract static class SignalCommand implements Runnable {
        @Mixin
        Connections connections;

        @Spec
        CommandSpec spec;

        @Parameters(arity = "1..*", paramLabel = "GROUP")
        List<String> groups;

        abstract String verb();

        abstract Consumer<GroupWorkflow> signal();

        @Override
        public void run() {
            try (Connections open = connections) {
                for (String g : groups) {
                    try {
                        signal().accept(connections
                                .temporal()
                                .newWorkflowStub(GroupWorkflow.class, TaskQueues.workflowId(g)));
                    } catch (WorkflowNotFoundException e) {
                        throw CliException.badInput(
                                "no running workflow for group '" + g + "': start it with `headway start " + g + "`");
                    }
                    spec.commandLine().getOut().println(verb() + " " + g);
                }
            }
        }
    }

    @Command(
            name = "pause",
            mixinStandardHelpOptions = true,
            description = "Pause groups: snapshot, release, wait for resume.")
    static final class Pause extends SignalCommand {
        @Override
        String verb() {
            return "paused";
        }

        @Override
        Consumer<GroupWorkflow> signal() {
            return GroupWorkflow::pause;
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Resume paused or parked groups.")
    static final class Resume extends SignalCommand {
        @Override
        String verb() {
            return "resumed";
        }

        @Override
        Consumer<GroupWorkflow> signal() {
            return GroupWorkflow::resume;
        }
    }

    @Command(
            name = "drain",
            mixinStandardHelpOptions = true,
            description = "Drain groups: finish the range, snapshot, release, and complete the workflow.")
    static final class Drain extends SignalCommand {
        @Override
        String verb() {
            return "draining";
        }

        @Override
        Consumer<GroupWorkflow> signal() {
            return GroupWorkflow::drain;
        }
    }
}
