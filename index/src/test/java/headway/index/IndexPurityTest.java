package headway.index;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The index is pure: it turns overview lines into binaries and releases, and reaches no database,
 * no Temporal and no network, so its tests run on any input in seconds and it can run inside any
 * activity. It reaches no module above it either.
 * It checks the module's own main classes (Maven runs the tests in the module's directory).
 */
class IndexPurityTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().importPath(Path.of("target", "classes"));
    }

    @Test
    void reachesNoDatabaseTemporalOrNetwork() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.index..", "headway.category..", "headway.overview..", "headway.deep..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "java.sql..",
                        "javax.sql..",
                        "com.zaxxer.hikari..",
                        "org.postgresql..",
                        "org.flywaydb..",
                        "io.temporal..",
                        "java.net..",
                        "javax.net..")
                .because("the index works on the lines it is given; the stores and the client sit above it")
                .check(main);
    }

    @Test
    void reachesNoModuleAboveIt() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.index..", "headway.category..", "headway.overview..", "headway.deep..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "headway.nntp..",
                        "headway.store..",
                        "headway.catalog..",
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
                        "dependencies point down: the client, the stores and the activities use the index, never the other way round")
                .check(main);
    }
}
