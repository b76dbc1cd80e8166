package headway.nntp;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The NNTP client speaks to a news server and nothing else: no JDBC, no Temporal, and no module
 * above it.
 * It checks the module's own main classes (Maven runs the tests in the module's directory).
 */
class NntpArchitectureTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().importPath(Path.of("target", "classes"));
    }

    @Test
    void reachesNoDatabaseOrTemporal() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.nntp..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "java.sql..",
                        "javax.sql..",
                        "com.zaxxer.hikari..",
                        "org.postgresql..",
                        "org.flywaydb..",
                        "io.temporal..")
                .because("the client reads overview lines into a sink; the activities decide what to store")
                .check(main);
    }

    @Test
    void reachesNoModuleAboveIt() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.nntp..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
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
                .because("dependencies point down: the activities use the client")
                .check(main);
    }
}
