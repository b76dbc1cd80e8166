package headway.web;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The front door serves the catalog: it reaches no NNTP client, no Temporal (workers or clients)
 * and none of the worker's modules, so a front-door deployment carries none of them.
 * It checks the module's own main classes (Maven runs the tests in the module's directory).
 */
class FrontDoorArchitectureTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().importPath(Path.of("target", "classes"));
    }

    @Test
    void reachesNoNntpNoTemporalAndNoWorkerCode() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.web..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "headway.nntp..",
                        "headway.activity..",
                        "headway.worker..",
                        "headway.workflow..",
                        "headway.coordination..",
                        "headway.watchman..",
                        "io.temporal..")
                .because("the front door reads the catalog and the settings only")
                .check(main);
    }

    @Test
    void reachesNoModuleAboveIt() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.web..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "headway.starter..",
                        "headway.lab..",
                        "headway.cluster..",
                        "headway.rig..",
                        "headway.simulator..")
                .because("the CLI starts the front door, never the other way round")
                .check(main);
    }
}
