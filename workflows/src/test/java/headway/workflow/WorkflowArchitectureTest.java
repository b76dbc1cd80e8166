package headway.workflow;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Workflow code must be deterministic on replay: it may not reach IO, the network, JDBC, threads,
 * system clocks or randomness. Temporal's own replacements ({@code Workflow.currentTimeMillis},
 * {@code Workflow.newRandom}, {@code Workflow.sleep}, {@code Async}) are the only way in.
 */
class WorkflowArchitectureTest {

    private static JavaClasses workflowCode;

    @BeforeAll
    static void importWorkflowCode() {
        workflowCode = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("headway.workflow", "headway.activity");
    }

    @Test
    void workflowCodeDoesNoIo() {
        check(noClasses()
                .that()
                .resideInAPackage("headway.workflow..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.io..", "java.nio..", "java.net..", "java.sql..", "javax.sql..")
                .because("workflow code is replayed: IO belongs in activities"));
    }

    @Test
    void workflowCodeStartsNoThreads() {
        check(noClasses()
                .that()
                .resideInAPackage("headway.workflow..")
                .should()
                .dependOnClassesThat()
                .areAssignableTo(Thread.class)
                .orShould()
                .dependOnClassesThat()
                .resideInAPackage("java.util.concurrent..")
                .because("workflow code runs on Temporal's deterministic scheduler: use Async and Workflow.sleep"));
    }

    @Test
    void workflowCodeReadsNoClockAndNoRandomness() {
        check(noClasses()
                .that()
                .resideInAPackage("headway.workflow..")
                .should()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(System.class, "nanoTime")
                .orShould()
                .callMethodWhere(target(name("now")))
                .orShould()
                .dependOnClassesThat()
                .areAssignableTo(Random.class)
                .orShould()
                .callMethod(Math.class, "random")
                .orShould()
                .callMethod(UUID.class, "randomUUID")
                .because("workflow code is replayed: use Workflow.currentTimeMillis and Workflow.newRandom"));
    }

    @Test
    void activityContractHasNoImplementationDependencies() {
        check(noClasses()
                .that()
                .resideInAPackage("headway.activity..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.sql..", "javax.sql..", "java.net..")
                .because("the activity interfaces and records are the contract the workflow sees"));
    }

    private static void check(ArchRule rule) {
        rule.check(workflowCode);
    }
}
