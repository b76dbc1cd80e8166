package headway.settings;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The settings catalogue sits below every module that reads it (the worker, the front door, the
 * CLI), so it reaches no other headway package.
 * It checks the module's own main classes (Maven runs the tests in the module's directory).
 */
class SettingsArchitectureTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().importPath(Path.of("target", "classes"));
    }

    @Test
    void reachesNoOtherHeadwayPackage() {
        noClasses()
                .that()
                .resideInAnyPackage("headway.settings..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "headway.overview..",
                        "headway.index..",
                        "headway.category..",
                        "headway.nntp..",
                        "headway.store..",
                        "headway.catalog..",
                        "headway.coordination..",
                        "headway.watchman..",
                        "headway.inspect..",
                        "headway.workflow..",
                        "headway.activity..",
                        "headway.worker..",
                        "headway.web..",
                        "headway.starter..",
                        "headway.lab..",
                        "headway.cluster..",
                        "headway.rig..",
                        "headway.simulator..")
                .because("the catalogue is the lowest module: the modules that read it must not be read back")
                .check(main);
    }
}
