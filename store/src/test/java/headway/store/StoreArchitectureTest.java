package headway.store;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What both stores share reaches no Temporal, no NNTP client and neither store above it.
 * It checks the module's own main classes (Maven runs the tests in the module's directory).
 */
class StoreArchitectureTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().importPath(Path.of("target", "classes"));
    }

    @Test
    void reachesNoTemporalOrNntp() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.store..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.temporal..", "headway.nntp..")
                .because("the database layer knows nothing of how work is scheduled or fetched")
                .check(main);
    }

    @Test
    void reachesNoModuleAboveIt() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.store..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "headway.catalog..",
                        "headway.coordination..",
                        "headway.watchman..",
                        "headway.index..",
                        "headway.category..",
                        "headway.overview..",
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
                .because("the catalog and the coordination state build on it, not it on them")
                .check(main);
    }
}
