package headway.coordination;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The coordination state reaches no Temporal and no NNTP client, and not the catalog beside it.
 * It checks the module's own main classes (Maven runs the tests in the module's directory).
 */
class CoordinationArchitectureTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().importPath(Path.of("target", "classes"));
    }

    @Test
    void reachesNoTemporalOrNntp() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.coordination..", "headway.watchman..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.temporal..", "headway.nntp..")
                .because("leases, ranges and the fence are database state; the activities wire them to Temporal")
                .check(main);
    }

    @Test
    void reachesNoModuleBesideOrAboveIt() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.coordination..", "headway.watchman..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "headway.catalog..",
                        "headway.settings..",
                        "headway.workflow..",
                        "headway.activity..",
                        "headway.worker..",
                        "headway.web..",
                        "headway.starter..",
                        "headway.lab..",
                        "headway.cluster..",
                        "headway.rig..",
                        "headway.simulator..")
                .because("the catalog and the coordination state are siblings over module store")
                .check(main);
    }
}
