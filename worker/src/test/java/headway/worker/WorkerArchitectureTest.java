package headway.worker;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The worker process reaches neither the front door nor the CLI above it.
 * It checks the module's own main classes (Maven runs the tests in the module's directory).
 */
class WorkerArchitectureTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().importPath(Path.of("target", "classes"));
    }

    @Test
    void reachesNoModuleAboveIt() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.worker..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "headway.web..",
                        "headway.starter..",
                        "headway.lab..",
                        "headway.cluster..",
                        "headway.rig..",
                        "headway.simulator..")
                .because("the CLI starts the worker, never the other way round")
                .check(main);
    }
}
