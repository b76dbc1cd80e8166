package headway.starter;

import headway.workflow.SearchAttributes;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.api.operatorservice.v1.ListSearchAttributesRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code headway search-attributes}: registers headway's custom search attributes (HeadwayGroup,
 * HeadwayState, ...) in the namespace, idempotently. A Temporal server other than the dev server
 * started by the demo needs this once before the first {@code headway start}, because a workflow
 * that sets an unregistered attribute fails its workflow tasks.
 */
@Command(
        name = "search-attributes",
        mixinStandardHelpOptions = true,
        description = "Register headway's custom search attributes in the namespace (idempotent).")
final class SearchAttributesCommand implements Runnable {
    @Mixin
    Connections connections;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        try (Connections open = connections) {
            WorkflowClient client = connections.temporal();
            String namespace = client.getOptions().getNamespace();
            // the workflow stubs' options, so TLS, the client certificate and the API key header
            // (a per-call metadata provider, which the raw channel would not carry) apply here too
            OperatorServiceStubs operator = OperatorServiceStubs.newServiceStubs(OperatorServiceStubsOptions.newBuilder(
                            client.getWorkflowServiceStubs().getOptions())
                    .validateAndBuildWithDefaults());
            try {
                Map<String, IndexedValueType> present = operator.blockingStub()
                        .withDeadlineAfter(10, TimeUnit.SECONDS)
                        .listSearchAttributes(ListSearchAttributesRequest.newBuilder()
                                .setNamespace(namespace)
                                .build())
                        .getCustomAttributesMap();
                Map<String, IndexedValueType> missing = new LinkedHashMap<>();
                for (Map.Entry<String, IndexedValueType> want :
                        SearchAttributes.types().entrySet()) {
                    IndexedValueType has = present.get(want.getKey());
                    if (has == null) {
                        missing.put(want.getKey(), want.getValue());
                    } else if (has != want.getValue()) {
                        throw CliException.badInput(
                                "search attribute " + want.getKey() + " exists in namespace " + namespace
                                        + " as " + typeName(has) + ", headway needs " + typeName(want.getValue())
                                        + ": remove it with `temporal operator search-attribute remove --name "
                                        + want.getKey() + "`");
                    } else {
                        out.println("exists " + want.getKey() + " (" + typeName(has) + ")");
                    }
                }
                if (!missing.isEmpty()) {
                    operator.blockingStub()
                            .withDeadlineAfter(30, TimeUnit.SECONDS)
                            .addSearchAttributes(AddSearchAttributesRequest.newBuilder()
                                    .setNamespace(namespace)
                                    .putAllSearchAttributes(missing)
                                    .build());
                    missing.forEach((name, type) -> out.println("registered " + name + " (" + typeName(type) + ")"));
                }
            } finally {
                operator.shutdown();
            }
        }
    }

    private static String typeName(IndexedValueType type) {
        String n = type.name().substring("INDEXED_VALUE_TYPE_".length()).toLowerCase(Locale.ROOT);
        return Character.toUpperCase(n.charAt(0)) + n.substring(1);
    }
}
