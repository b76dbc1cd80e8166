package headway.activity;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The activity implementations wire the modules below them together and reach no process above
 * them.
 * It checks the module's own main classes (Maven runs the tests in the module's directory).
 */
class ActivitiesArchitectureTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().importPath(Path.of("target", "classes"));
    }

    @Test
    void reachesNoModuleAboveIt() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.activity..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "headway.worker..",
                        "headway.web..",
                        "headway.starter..",
                        "headway.lab..",
                        "headway.cluster..",
                        "headway.rig..",
                        "headway.simulator..")
                .because("the worker registers the activities; they must not reach back into it")
                .check(main);
    }
}
