package headway.catalog;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The catalog reaches no Temporal and no NNTP client, and not the coordination state beside it:
 * the front door reads the catalog alone.
 * It checks the module's own main classes (Maven runs the tests in the module's directory).
 */
class CatalogArchitectureTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().importPath(Path.of("target", "classes"));
    }

    @Test
    void reachesNoTemporalOrNntp() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.catalog..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.temporal..", "headway.nntp..")
                .because("catalog writes join the caller's transaction; scheduling and fetching are the activities'")
                .check(main);
    }

    @Test
    void reachesNoModuleBesideOrAboveIt() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.catalog..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "headway.coordination..",
                        "headway.watchman..",
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
                .because(
                        "the front door depends on the catalog only, so the catalog must not pull in leases, ranges or the watchman")
                .check(main);
    }
}
